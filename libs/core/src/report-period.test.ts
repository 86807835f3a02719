import { ValidationError } from './errors';
import { MAX_REPORT_DAYS, reportPeriod, successRate } from './report-period';

const NOW = new Date('2026-11-26T15:30:00.000Z');

describe('reportPeriod', () => {
  it('when no dates are given, then it is the 30 days up to today (UTC), every day listed', () => {
    const period = reportPeriod({}, NOW);
    expect(period).toMatchObject({ from: '2026-10-28', to: '2026-11-26', startsAt: '2026-10-28T00:00:00.000Z', endsBefore: '2026-11-27T00:00:00.000Z' });
    expect(period.days).toHaveLength(30);
    expect(period.days[1]).toBe('2026-10-29');
  });

  it('when from and to are the same day, then the period is that one day', () => {
    expect(reportPeriod({ from: '2026-02-28', to: '2026-02-28' }, NOW)).toMatchObject({ days: ['2026-02-28'], endsBefore: '2026-03-01T00:00:00.000Z' });
  });

  it.each([
    [{ from: '2026-02-30' }, 'from'],
    [{ to: '26-11-01' }, 'to'],
    [{ from: '2026-11-20', to: '2026-11-19' }, 'from'],
    [{ from: '2026-01-01', to: '2026-11-26' }, 'from'],
    [{ to: ['2026-11-01'] }, 'to'],
  ])('when the query is %j, then it answers 422 naming %s', (query, field) => {
    let thrown: unknown;
    try {
      reportPeriod(query, NOW);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ValidationError);
    expect((thrown as ValidationError).extensions.field).toBe(field);
  });

  it(`when the period is exactly ${MAX_REPORT_DAYS} days, then it is accepted`, () => {
    expect(reportPeriod({ from: '2026-08-27', to: '2026-11-26' }, NOW).days).toHaveLength(MAX_REPORT_DAYS);
  });
});

describe('successRate', () => {
  it('is succeeded over finished with 4 decimals, and null when nothing finished', () => {
    expect(successRate(2, 1)).toBe(0.6667);
    expect(successRate(0, 0)).toBeNull();
    expect(successRate(0, 3)).toBe(0);
  });
});
