import { SCOPES, type InternalTokenSigner } from '@vaultline/auth';
import type { ForwarderInternalApi, ForwardPaymentFormat, ForwardPaymentResponseDto } from '@vaultline/contracts';
import { newId, type Scope } from '@vaultline/core';
import type { EgressClient } from '@vaultline/egress';
import type { InternalClient } from '@vaultline/http';
import type { ProcessorTransport } from '../processors/transport-port';
import type { HostModeCheck } from '../processors/processor-destinations';
import type { MultipartBody, ProcessorBodyFormat, ProcessorHttpResponse } from '../processors/processor-wire';
import { randomBytes } from 'node:crypto';

/** One call of the forwarder's internal payments API, whatever carries it. */
export type ForwardPayment = (call: {
  scope: Scope;
  tokenId: string;
  url: string;
  headers: Record<string, string>;
  format?: ForwardPaymentFormat;
  body: unknown;
}) => Promise<ForwardPaymentResponseDto>;

/** In the embedded profile: the forwarder's API object, called with a token signed as for HTTP (audience forwarder, forward:payments, the mode). */
export function inProcessForwardPayment(api: ForwarderInternalApi, signer: Pick<InternalTokenSigner, 'sign'>): ForwardPayment {
  return ({ scope, tokenId, url, headers, format, body }) =>
    api.forwardPayment({
      bearerToken: signer.sign('forwarder', { merchantId: scope.merchantId, scopes: [SCOPES.forwardPayments], mode: scope.mode }),
      requestId: newId(),
      tokenId,
      destinationUrl: url,
      headers,
      ...(format ? { format } : {}),
      body,
    });
}

/** The forwarder refused the call (nothing reached the processor); `code` is its problem's code, as the in-process API's error carries it. */
class ForwardRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string | null,
  ) {
    super(`forwarder answered ${status}${code ? ` ${code}` : ''}`);
  }
}

const problemCode = (body: unknown): string | null => {
  const code = typeof body === 'object' && body !== null ? (body as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : null;
};

/** Otherwise: `POST /internal/forward/payments`; any answer but 200 means nothing reached the processor. */
export function httpForwardPayment(forwarder: Pick<InternalClient, 'request'>): ForwardPayment {
  return async ({ scope, tokenId, url, headers, format, body }) => {
    const response = await forwarder.request<ForwardPaymentResponseDto>({
      method: 'POST',
      path: '/internal/forward/payments',
      merchantId: scope.merchantId,
      mode: scope.mode,
      scopes: [SCOPES.forwardPayments],
      requestId: newId(),
      body: { token_id: tokenId, destination_url: url, headers, ...(format ? { format } : {}), body },
    });
    if (response.status !== 200) throw new ForwardRefused(response.status, problemCode(response.body));
    return response.body;
  };
}

/** Form fields (text values, in their order) as application/x-www-form-urlencoded. */
function formEncoded(body: unknown): string {
  const fields = Object.entries((body ?? {}) as Record<string, unknown>).map(([key, value]): [string, string] => [key, String(value)]);
  return new URLSearchParams(fields).toString();
}

/**
 * A multipart/form-data body (RFC 7578): each text field, then each file with its name, file name and
 * content type. The boundary is random and checked against the content, so no part can end early.
 */
export function multipartEncoded(body: MultipartBody): { body: Buffer; contentType: string } {
  let boundary = `vaultline-${randomBytes(16).toString('hex')}`;
  const contents = [...Object.values(body.fields).map((value) => Buffer.from(value, 'utf8')), ...body.files.map((file) => file.content)];
  while (contents.some((content) => content.includes(boundary))) boundary = `vaultline-${randomBytes(16).toString('hex')}`;
  const quoted = (value: string) => value.replace(/["\\\r\n]/g, '_');
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(body.fields)) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n`, 'utf8'),
      Buffer.from(value, 'utf8'),
      Buffer.from('\r\n', 'utf8'),
    );
  }
  for (const file of body.files) {
    const head = `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.name)}"; filename="${quoted(file.filename)}"\r\nContent-Type: ${file.content_type}\r\n\r\n`;
    parts.push(Buffer.from(head, 'utf8'), file.content, Buffer.from('\r\n', 'utf8'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`, 'utf8'));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A request body in its format, with the content type that goes with it (JSON's is the egress client's default). */
export function encodedBody(format: ProcessorBodyFormat | undefined, body: unknown): { body: string | Buffer; contentType: Record<string, string> } {
  if (format === 'form') return { body: formEncoded(body), contentType: { 'content-type': 'application/x-www-form-urlencoded' } };
  if (format === 'multipart') {
    const encoded = multipartEncoded(body as MultipartBody);
    return { body: encoded.body, contentType: { 'content-type': encoded.contentType } };
  }
  return { body: JSON.stringify(body), contentType: {} };
}

function parsed(text: string): unknown {
  try {
    return text === '' ? null : (JSON.parse(text) as unknown);
  } catch {
    return null;
  }
}

/**
 * The orchestrator's way to processors: card-data requests through the forwarder (which fills the
 * placeholders), the others straight through egress (loopback and private addresses only when the egress
 * client allows them: PROCESSOR_ALLOW_PRIVATE_URLS). Failures before an answer throw.
 */
/** `forwardedHeaders`: the headers the plugins' manifests forward (lower case); the others of a request stay here. */
export function createProcessorTransport(deps: {
  forwardPayment: ForwardPayment;
  egress: Pick<EgressClient, 'request'>;
  assertHostServesMode: HostModeCheck;
  forwardedHeaders: readonly string[];
}): ProcessorTransport {
  const forwarded = new Set(deps.forwardedHeaders);
  return {
    async forward(request): Promise<ProcessorHttpResponse> {
      // The forwarder sets the content type itself and passes only the headers the processors' manifests forward.
      const headers = Object.fromEntries(Object.entries(request.headers).filter(([name]) => forwarded.has(name.toLowerCase())));
      const answer = await deps.forwardPayment({ ...request, headers });
      return { status: answer.status, body: parsed(answer.body) };
    },
    async send({ mode, url, method, headers, format, body }): Promise<ProcessorHttpResponse> {
      deps.assertHostServesMode(url, mode);
      const encoded = body === undefined ? null : encodedBody(format, body);
      const response = await deps.egress.request({
        url,
        method,
        headers: { ...headers, ...(encoded?.contentType ?? {}), 'accept-encoding': 'identity' },
        ...(encoded ? { body: encoded.body } : {}),
      });
      return { status: response.status, body: parsed(response.body.toString('utf8')) };
    },
  };
}
