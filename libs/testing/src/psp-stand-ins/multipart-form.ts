/**
 * A multipart/form-data body taken apart (RFC 7578), as a processor's file upload endpoint reads it: the
 * boundary from the Content-Type, each part's name, file name, content type and bytes. Null when the body
 * is not such a body. For the processors' stand-ins.
 */
export interface MultipartPart {
  name: string;
  filename: string | null;
  contentType: string | null;
  content: Buffer;
}

export function parseMultipart(contentType: string | undefined, body: Buffer): MultipartPart[] | null {
  const boundary = /^multipart\/form-data;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (!boundary) return null;
  const delimiter = Buffer.from(`--${boundary[1] ?? boundary[2]}`);
  const parts: MultipartPart[] = [];
  let start = body.indexOf(delimiter);
  if (start !== 0) return null;
  for (;;) {
    const afterDelimiter = start + delimiter.length;
    if (body.subarray(afterDelimiter, afterDelimiter + 2).toString() === '--') return parts;
    const headersStart = afterDelimiter + 2;
    const headersEnd = body.indexOf('\r\n\r\n', headersStart);
    const next = body.indexOf(delimiter, headersEnd);
    if (headersEnd < 0 || next < 0) return null;
    const headers = body.subarray(headersStart, headersEnd).toString('utf8');
    const disposition = /content-disposition:\s*form-data;\s*name="([^"]*)"(?:;\s*filename="([^"]*)")?/i.exec(headers);
    if (!disposition) return null;
    const type = /content-type:\s*([^\r\n]+)/i.exec(headers);
    parts.push({
      name: disposition[1]!,
      filename: disposition[2] ?? null,
      contentType: type ? type[1]!.trim() : null,
      content: body.subarray(headersEnd + 4, next - 2),
    });
    start = next;
  }
}
