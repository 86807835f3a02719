import { isImportTokenCreated } from './token-created.consumer';

describe('isImportTokenCreated', () => {
  it('when a token.created comes from /cde-import with a correlation id, then the importer wants it', () => {
    expect(isImportTokenCreated({ type: 'token.created', data: { source: 'cde_import', correlation_id: '01a2-job' } })).toBe(true);
  });

  it.each([
    ['created through POST /tokens', { source: 'api', correlation_id: null }],
    ['imported one by one without a job', { source: 'cde_import', correlation_id: null }],
    ['without data', undefined],
    ['with data that is not an object', 'cde_import'],
  ])('when a token.created was %s, then the importer passes it over', (_case, data) => {
    expect(isImportTokenCreated({ type: 'token.created', data })).toBe(false);
  });
});
