import { parseMultipart } from '@vaultline/testing/psp-stand-ins';
import { encodedBody, multipartEncoded } from './forwarder-egress-transport';

describe('multipart/form-data bodies (evidence files)', () => {
  it("when a body of fields and files is encoded, then a multipart reader (RFC 7578) gets back each field and each file's name, file name, type and bytes", () => {
    const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n', 'latin1'), Buffer.from([0, 0xff, 0x0d, 0x0a, 0x2d, 0x2d])]);
    const { body, contentType } = multipartEncoded({
      fields: { purpose: 'dispute_evidence' },
      files: [{ name: 'file', filename: 'receipt "1001".pdf', content_type: 'application/pdf', content: pdf }],
    });
    expect(contentType).toMatch(/^multipart\/form-data; boundary=vaultline-[0-9a-f]{32}$/);
    const parts = parseMultipart(contentType, body)!;
    expect(parts.map((part) => [part.name, part.filename, part.contentType, part.content.toString('latin1')])).toEqual([
      ['purpose', null, null, 'dispute_evidence'],
      ['file', 'receipt _1001_.pdf', 'application/pdf', pdf.toString('latin1')],
    ]);
  });

  it("when a request body is encoded by its format, then JSON, form and multipart each get their content type (JSON's set by the mapper)", () => {
    expect(encodedBody('json', { a: 1 })).toEqual({ body: '{"a":1}', contentType: {} });
    expect(encodedBody('form', { a: 'x y' })).toEqual({ body: 'a=x+y', contentType: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(encodedBody('multipart', { fields: {}, files: [] }).contentType['content-type']).toMatch(/^multipart\/form-data; boundary=/);
  });
});
