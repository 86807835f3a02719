import { collect } from './collect';
import { cell, money, table } from './output';

describe('what the CLI prints', () => {
  it('a table aligns its columns under upper-case headings and shows a missing value as -', () => {
    const rows = [
      { id: 'a1', status: 'captured', reference: 'order-1' },
      { id: 'b22', status: 'failed', reference: null },
    ];
    expect(
      table(rows, [
        { header: 'id', value: (r) => r.id },
        { header: 'status', value: (r) => r.status },
        { header: 'reference', value: (r) => r.reference },
      ]),
    ).toBe(['ID   STATUS    REFERENCE', 'a1   captured  order-1', 'b22  failed    -', ''].join('\n'));
  });

  it("amounts in minor units are written with the currency's decimals", () => {
    expect(money(1999, 'EUR')).toBe('19.99 EUR');
    expect(money(500, 'JPY')).toBe('500 JPY');
    expect(money(1234, 'KWD')).toBe('1.234 KWD');
    expect([money(150000, 'HUF'), money(1500000, 'IQD')]).toEqual(['1500.00 HUF', '1500.000 IQD']);
    expect(money(undefined, 'EUR')).toBe('-');
  });

  it('objects in a cell are compact JSON', () => {
    expect(cell({ reference_prefix: 'manual-' })).toBe('{"reference_prefix":"manual-"}');
  });

  it('collect stops reading pages once it has the limit of matching items', async () => {
    let read = 0;
    async function* pages() {
      for (let i = 1; i <= 100; i += 1) {
        read = i;
        yield i;
      }
    }
    expect(await collect(pages(), 3, (n) => n % 2 === 0)).toEqual([2, 4, 6]);
    expect(read).toBe(6);
  });
});
