import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Request, Response } from 'express';

/**
 * Static answers (the docs' assets, pages and OpenAPI documents, the dashboard's files) compressed once and
 * kept: brotli or gzip by the request's Accept-Encoding, `Vary: Accept-Encoding`, a strong ETag per
 * representation and 304 for a matching If-None-Match. Compression runs in libuv's thread pool (zlib's async
 * calls), never on the event loop: gzip first (about 30 ms for Redoc's 1.1 MB bundle), brotli in the
 * background, so the first request is not held for brotli and later ones get the smaller body.
 */
export type ContentEncoding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
/** Below this a compressed body saves less than its headers cost. */
const MIN_COMPRESSIBLE_BYTES = 1024;
/** Brotli quality 5: about gzip's speed class, 8 % smaller than gzip -9 on Redoc's bundle (11 would take seconds per megabyte). */
const BROTLI_QUALITY = 5;

/**
 * The encoding to answer with among those `available`, as the client's Accept-Encoding ranks them (RFC 9110
 * §12.5.3): q=0 refuses, `*` stands for any not named; ties prefer brotli. Null: the identity body.
 */
export function negotiateEncoding(acceptEncoding: string | undefined, available: readonly ContentEncoding[]): ContentEncoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
    const q = parameters.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)?.[1]).find((value) => value !== undefined);
    if (name) weights.set(name.trim(), q === undefined ? 1 : Math.min(1, Number(q) || 0));
  }
  const weightOf = (encoding: ContentEncoding) => weights.get(encoding) ?? weights.get('*') ?? 0;
  let best: ContentEncoding | null = null;
  for (const encoding of available) {
    if (weightOf(encoding) > 0 && (best === null || weightOf(encoding) > weightOf(best))) best = encoding;
  }
  return best;
}

/** A body served as it is or compressed, each representation computed once. */
export class CompressibleBody {
  readonly etag: string;
  /** Short and stable: the assets' `?v=` so their addresses change with their content. */
  readonly version: string;
  private readonly variants = new Map<ContentEncoding, Promise<Buffer>>();
  private readonly ready = new Map<ContentEncoding, Buffer>();

  constructor(
    readonly identity: Buffer,
    readonly type: string,
    /** False for bodies compressed already (images, fonts): they are always answered as they are. */
    private readonly compressible = true,
  ) {
    const hash = createHash('sha256').update(identity).digest('base64url');
    this.version = hash.slice(0, 12);
    this.etag = `"${hash.slice(0, 27)}"`;
  }

  private compressed(encoding: ContentEncoding): Promise<Buffer> {
    let variant = this.variants.get(encoding);
    if (!variant) {
      variant =
        encoding === 'br'
          ? brotli(this.identity, { params: { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: this.identity.length } })
          : gzipped(this.identity, { level: 9 });
      variant.then((body) => this.ready.set(encoding, body)).catch(() => this.variants.delete(encoding));
      this.variants.set(encoding, variant);
    }
    return variant;
  }

  /** The body for this Accept-Encoding: brotli once it is ready, gzip meanwhile (brotli then starts), else as it is. */
  async representation(acceptEncoding: string | undefined): Promise<{ body: Buffer; encoding: ContentEncoding | null }> {
    if (!this.compressible || this.identity.length < MIN_COMPRESSIBLE_BYTES) return { body: this.identity, encoding: null };
    const wanted = negotiateEncoding(acceptEncoding, ['br', 'gzip']);
    if (wanted === null) return { body: this.identity, encoding: null };
    const ready = this.ready.get(wanted);
    if (ready) return { body: ready, encoding: wanted };
    if (wanted === 'br') {
      void this.compressed('br').catch(() => undefined);
      const fallback = negotiateEncoding(acceptEncoding, ['gzip']);
      if (fallback) return { body: await this.compressed('gzip'), encoding: 'gzip' };
    }
    return { body: await this.compressed(wanted), encoding: wanted };
  }

  /** Whether an If-None-Match names this body (any representation of it: they differ only in encoding). */
  matches(ifNoneMatch: string | undefined): boolean {
    if (!ifNoneMatch) return false;
    if (ifNoneMatch.trim() === '*') return true;
    const bare = this.etag.slice(1, -1);
    return ifNoneMatch.split(',').some(
      (tag) =>
        tag
          .trim()
          .replace(/^W\//, '')
          .replace(/^"|"$/g, '')
          .replace(/-(br|gzip)$/, '') === bare,
    );
  }
}

/**
 * Answers `item` for the request: 304 when the client holds it, else the best encoding it accepts, with
 * Vary, ETag (one per representation) and the cache policy given.
 */
export async function sendCompressed(req: Request, res: Response, item: CompressibleBody, cacheControl: string): Promise<void> {
  res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('Content-Type', item.type);
  if (item.matches(req.get('if-none-match'))) {
    res.setHeader('ETag', item.etag);
    res.status(304).end();
    return;
  }
  const { body, encoding } = await item.representation(req.get('accept-encoding'));
  res.setHeader('ETag', encoding ? `${item.etag.slice(0, -1)}-${encoding}"` : item.etag);
  if (encoding) res.setHeader('Content-Encoding', encoding);
  res.setHeader('Content-Length', String(body.length));
  res.status(200).end(req.method === 'HEAD' ? undefined : body);
}
