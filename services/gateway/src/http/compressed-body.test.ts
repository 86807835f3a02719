import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { waitFor } from '@vaultline/core';
import { CompressibleBody, negotiateEncoding } from './compressed-body';

describe('compressed static answers', () => {
  it.each([
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['br;q=0.5, gzip;q=0.9', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0.2, gzip;q=0', 'br'],
    ['identity', null],
    [undefined, null],
  ] as const)('when a client sends Accept-Encoding %s, then the answer is encoded %s', (header, expected) => {
    expect(negotiateEncoding(header, ['br', 'gzip'])).toBe(expected);
  });

  it('when a body is asked for with brotli before brotli is ready, then gzip answers at once and brotli the next time; both decode to the body', async () => {
    const text = Buffer.from('openapi '.repeat(5_000));
    const item = new CompressibleBody(text, 'application/json');
    const first = await item.representation('gzip, br');
    expect(first.encoding).toBe('gzip');
    expect(gunzipSync(first.body).equals(text)).toBe(true);
    // Brotli runs in the thread pool meanwhile: asked again until it is there (a generous deadline, no fixed wait).
    const later = await waitFor(
      async () => {
        const next = await item.representation('gzip, br');
        return next.encoding === 'br' ? next : null;
      },
      30_000,
      5,
    );
    expect(brotliDecompressSync(later.body).equals(text)).toBe(true);
    expect(later.body.length).toBeLessThan(text.length / 20);
  });

  it('when a body is small, or the client accepts no encoding, then it is answered as it is', async () => {
    expect((await new CompressibleBody(Buffer.from('{}'), 'application/json').representation('br')).encoding).toBeNull();
    expect((await new CompressibleBody(Buffer.alloc(5_000, 97), 'text/plain').representation(undefined)).encoding).toBeNull();
  });

  it('when If-None-Match names the body in any of its encodings (or weakly), then it matches; another body does not', () => {
    const item = new CompressibleBody(Buffer.from('a'.repeat(2_000)), 'text/plain');
    const bare = item.etag.slice(1, -1);
    for (const tag of [item.etag, `"${bare}-br"`, `W/"${bare}-gzip"`, `"other", ${item.etag}`, '*'])
      expect({ tag, matches: item.matches(tag) }).toEqual({ tag, matches: true });
    expect(item.matches(new CompressibleBody(Buffer.from('b'.repeat(2_000)), 'text/plain').etag)).toBe(false);
    expect(item.matches(undefined)).toBe(false);
  });
});
