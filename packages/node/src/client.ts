import openapiFetch, { type Client, type ClientPathsWithMethod, type FetchResponse, type MaybeOptionalInit, type Middleware } from 'openapi-fetch';
import { VaultlineError } from './errors.js';
import { DEFAULT_RETRY_OPTIONS, retryingFetch, type RetryOptions } from './retrying-fetch.js';

type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';
/** Generated paths (an interface keyed by path, each keyed by method). */
type PathsShape = object;
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** The request options of an operation: optional when the operation needs no parameter and no body. */
type InitArgs<Init> = [RequiredKeys<Init>] extends [never] ? [init?: Init] : [init: Init];

/** The success body of an operation (JSON), as openapi-fetch types it. */
export type ResponseData<Paths, Path extends keyof Paths, Method extends HttpMethod> =
  Paths[Path] extends Record<Method, Record<string | number, unknown>>
    ? NonNullable<FetchResponse<Paths[Path][Method], object, 'application/json'>['data']>
    : never;

/** A typed call of every path the document has for one method: the success body, or a VaultlineError thrown. */
export type Call<Paths extends PathsShape, Method extends HttpMethod> = <
  Path extends ClientPathsWithMethod<Client<Paths>, Method>,
  Init extends MaybeOptionalInit<Paths[Path], Method & keyof Paths[Path]>,
>(
  path: Path,
  ...init: InitArgs<Init>
) => Promise<ResponseData<Paths, Path, Method>>;

/** A GET path whose answer is a page of the list envelope ({ data, has_more, next_cursor }). */
type ListItem<Paths, Path extends keyof Paths> = ResponseData<Paths, Path, 'get'> extends { data: Array<infer Item> } ? Item : never;

export interface ClientOptions extends Partial<RetryOptions> {
  /** Where the API is (default http://localhost:8080, or VAULTLINE_BASE_URL when the caller passes it). */
  baseUrl?: string;
  /** A fetch to use instead of the global one (tests, proxies). */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers sent on every request (X-Test-Now for the test clock, for instance). */
  headers?: Record<string, string>;
  /** Appended to the User-Agent. */
  userAgent?: string;
  /**
   * Whether the browser sends its cookies (fetch's `credentials`). A dashboard session is a cookie:
   * `'same-origin'` sends it to the page's own origin and nowhere else. Unset: fetch's default.
   */
  credentials?: 'omit' | 'same-origin' | 'include';
  /** How the client waits between two attempts (default: a timer); tests record the waits instead. */
  sleep?: (ms: number) => Promise<void>;
}

/** Options of one untyped request (`request`): for paths the generated types do not know yet. */
export interface RawRequest {
  query?: Record<string, string | number | boolean | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * openapi-fetch's default export. A bundler that inlines this package as a Node ES module into a CommonJS
 * bundle (the CLI's) hands over the whole CommonJS exports object instead: its `default` is the function.
 */
const createClient: typeof openapiFetch =
  typeof openapiFetch === 'function' ? openapiFetch : (openapiFetch as unknown as { default: typeof openapiFetch }).default;

export const DEFAULT_BASE_URL = 'http://localhost:8080';
const SDK_USER_AGENT = 'vaultline-node/0.1.0';

/**
 * The shared machinery of the merchant and the admin clients: an openapi-fetch client over the generated
 * paths, with the retrying fetch (Idempotency-Key on POSTs, backoff) and failures turned into
 * VaultlineError.
 */
export class TypedApi<Paths extends PathsShape> {
  /** The generated openapi-fetch client itself ({ data, error, response } answers; errors thrown as VaultlineError). */
  readonly api: Client<Paths, 'application/json'>;
  readonly baseUrl: string;
  private readonly fetchWithRetries: (request: Request) => Promise<Response>;
  private readonly headers: Record<string, string>;
  private readonly credentials: ClientOptions['credentials'];

  readonly get: Call<Paths, 'get'>;
  readonly post: Call<Paths, 'post'>;
  readonly put: Call<Paths, 'put'>;
  readonly patch: Call<Paths, 'patch'>;
  readonly delete: Call<Paths, 'delete'>;

  constructor(credentials: Record<string, string>, options: ClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
    this.fetchWithRetries = retryingFetch({ ...DEFAULT_RETRY_OPTIONS, ...definedOnly(options) }, options.fetch, options.sleep);
    this.headers = { ...credentials, 'User-Agent': options.userAgent ? `${SDK_USER_AGENT} ${options.userAgent}` : SDK_USER_AGENT, ...options.headers };
    this.credentials = options.credentials;
    this.api = createClient<Paths, 'application/json'>({
      baseUrl: this.baseUrl,
      fetch: this.fetchWithRetries,
      headers: this.headers,
      ...(options.credentials ? { credentials: options.credentials } : {}),
    });
    this.api.use(throwProblems);
    const call =
      (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE') =>
      async (path: string, init?: object): Promise<never> => {
        const send = this.api[method] as unknown as (path: string, init?: object) => Promise<{ data?: unknown; response: Response }>;
        // Read as text, then JSON when the answer says so: a processor notification is acknowledged in plain text.
        const { data, response } = await send(path, { ...init, parseAs: 'text' });
        return bodyOf(response, data as string | undefined) as never;
      };
    this.get = call('GET') as Call<Paths, 'get'>;
    this.post = call('POST') as Call<Paths, 'post'>;
    this.put = call('PUT') as Call<Paths, 'put'>;
    this.patch = call('PATCH') as Call<Paths, 'patch'>;
    this.delete = call('DELETE') as Call<Paths, 'delete'>;
  }

  /**
   * Every item of a list, page after page (limit, starting_after = the previous page's next_cursor, until
   * has_more is false), fetched lazily as the loop asks for more: `for await (const p of client.list('/payments'))`.
   */
  async *list<Path extends ClientPathsWithMethod<Client<Paths>, 'get'>, Init extends MaybeOptionalInit<Paths[Path], 'get' & keyof Paths[Path]>>(
    path: Path,
    ...init: InitArgs<Init>
  ): AsyncGenerator<ListItem<Paths, Path>, void, undefined> {
    const first = (init[0] ?? {}) as { params?: { query?: Record<string, unknown> } };
    let cursor: string | undefined;
    do {
      const params = { ...first.params, query: { ...first.params?.query, ...(cursor ? { starting_after: cursor } : {}) } };
      const page = await (this.get as unknown as (p: string, i: object) => Promise<Page<ListItem<Paths, Path>>>)(path as string, { ...first, params });
      yield* page.data;
      cursor = page.has_more && page.next_cursor ? page.next_cursor : undefined;
    } while (cursor);
  }

  /**
   * Any path, untyped: for a route newer than this SDK's generated types. Same retries, Idempotency-Key
   * and errors as the typed calls; answers the parsed JSON body (undefined for an empty one).
   */
  async request<T = unknown>(method: string, path: string, options: RawRequest = {}): Promise<T> {
    const url = new URL(`${this.baseUrl}${path.startsWith('/') ? path : `/${path}`}`);
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) url.searchParams.set(name, String(value));
    const headers: Record<string, string> = { ...this.headers, ...options.headers };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await this.fetchWithRetries(
      new Request(url, {
        method: method.toUpperCase(),
        headers,
        ...(this.credentials ? { credentials: this.credentials } : {}),
        ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
      }),
    );
    if (!response.ok) throw await VaultlineError.fromResponse(response);
    return bodyOf(response, await response.text()) as T;
  }
}

interface Page<Item> {
  data: Item[];
  has_more: boolean;
  next_cursor: string | null;
}

/** A JSON answer parsed; any other answer as its text; an empty one as undefined. */
function bodyOf(response: Response, text: string | undefined): unknown {
  if (!text) return undefined;
  return /[/+]json\b/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : text;
}

const throwProblems: Middleware = {
  async onResponse({ response }) {
    if (!response.ok) throw await VaultlineError.fromResponse(response);
    return undefined;
  },
};

function definedOnly(options: ClientOptions): Partial<RetryOptions> {
  const picked: Partial<RetryOptions> = {};
  for (const key of ['maxRetries', 'initialDelayMs', 'maxDelayMs', 'timeoutMs'] as const) if (options[key] !== undefined) picked[key] = options[key];
  return picked;
}
