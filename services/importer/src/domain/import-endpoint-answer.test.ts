import { judgeImportAnswer } from './import-endpoint-answer';

describe('judging /cde-import answers relayed by the platform', () => {
  it('when the vault stored the card (201 or 200), then it is accepted and left for token.created to count', () => {
    expect(judgeImportAnswer({ status: 201, code: null })).toEqual({ kind: 'accepted' });
    expect(judgeImportAnswer({ status: 200, code: null })).toEqual({ kind: 'accepted' });
  });

  it('when the vault refuses the card, then it is rejected with the problem code, or a status-based code when the code looks odd', () => {
    expect(judgeImportAnswer({ status: 422, code: 'card_expired' })).toEqual({ kind: 'rejected', reason: 'card_expired' });
    expect(judgeImportAnswer({ status: 422, code: '4242424242424242 bad' })).toEqual({ kind: 'rejected', reason: 'import_rejected_422' });
  });

  it('when the job key is refused, then the whole job must stop; when the vault is busy, then retry', () => {
    expect(judgeImportAnswer({ status: 401, code: 'unauthorized' })).toEqual({ kind: 'credential_rejected' });
    expect(judgeImportAnswer({ status: 403, code: null })).toEqual({ kind: 'credential_rejected' });
    for (const status of [409, 429]) expect(judgeImportAnswer({ status, code: null })).toEqual({ kind: 'retry', uncertain: false });
    // After a 5xx the card may have been stored all the same: the importer looks before forwarding again.
    for (const status of [500, 503]) expect(judgeImportAnswer({ status, code: null })).toEqual({ kind: 'retry', uncertain: true });
  });
});
