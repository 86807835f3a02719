import { sanitizeOutgoingHeaders } from './outgoing-headers';
import { EgressInvalidHeaderError } from './egress-errors';

describe('sanitizeOutgoingHeaders', () => {
  it('when hop-by-hop, Host and Content-Length headers are given, then they are dropped and the rest lower-cased', () => {
    const result = sanitizeOutgoingHeaders({
      Host: 'internal.local',
      Connection: 'keep-alive, X-Secret-Hop',
      'X-Secret-Hop': '1',
      'Keep-Alive': 'timeout=5',
      'Transfer-Encoding': 'chunked',
      TE: 'trailers',
      Upgrade: 'websocket',
      'Proxy-Authorization': 'Basic abc',
      'Content-Length': '999',
      'Content-Type': 'application/json',
      'X-API-Key': 'abc',
    });
    expect(result).toEqual({ 'content-type': 'application/json', 'x-api-key': 'abc' });
  });

  it.each([
    ['X-Test', 'value\r\nX-Injected: 1'],
    ['X-Test', 'value\nmore'],
    ['X-Test', 'value\rmore'],
    ['X-Test', 'nul\u0000byte'],
    ['X-Test\r\nX-Injected', 'v'],
    ['Bad Header', 'v'],
    ['', 'v'],
  ])('when the header %j has value %j, then it is rejected before sending', (name, value) => {
    expect(() => sanitizeOutgoingHeaders({ [name]: value })).toThrow(EgressInvalidHeaderError);
  });
});
