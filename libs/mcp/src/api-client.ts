import { createHash } from 'node:crypto';

/** An argument that fits the input schema but not the question (a time that does not parse, a span backwards, a name `..`). */
export class InvalidArgumentError extends Error {}

/** One record an answer rests on: where to read it again, and the SHA-256 of the bytes the answer was built from. */
export interface Citation {
  url: string;
  sha256: string;
}

/** The API refused or failed a request: its status and its own `message`, passed on to the assistant as is. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The refusal itself, when the API answered (a "nothing found" rests on it). */
    readonly citation?: Citation,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ApiClientOptions {
  /** Where the API is reached (`http://127.0.0.1:8080`, or the service's address for the stdio server). */
  baseUrl: string;
  /** The base URL cited in answers (the service's public address); default `baseUrl`. */
  citeBaseUrl?: string;
  org: string;
  /** The caller's `Authorization` header value (`Bearer vtk_...`), sent with every request. */
  authorization: string;
  /** Passed on as `X-Request-Id`, so that the API's log lines of one tool call share the caller's id. */
  requestId?: string;
  /** Bounds one request (default 30 s). */
  timeoutMs?: number;
}

export interface ApiAnswer<T> {
  body: T;
  citation: Citation;
}

/** Largest API answer a tool reads (an answer larger than this is refused rather than paged through memory). */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/**
 * The service's public HTTP API as the MCP tools use it: read requests with the caller's own credential, so
 * authentication, roles, rate limits, beta features and error messages are exactly the API's.
 */
export class VeritrailApi {
  readonly org: string;
  private readonly base: string;
  private readonly citeBase: string;

  constructor(private readonly options: ApiClientOptions) {
    this.org = options.org;
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.citeBase = (options.citeBaseUrl ?? options.baseUrl).replace(/\/+$/, '');
  }

  /**
   * `/api/v2/<segments...>` with each segment encoded, and the query's defined fields. A segment `.` or `..` is
   * refused: encoded or not, a URL collapses it, and the request would climb to another path (another org's).
   */
  path(segments: (string | number)[], query: Record<string, string | number | boolean | undefined> = {}): string {
    const dots = segments.find((s) => s === '.' || s === '..');
    if (dots !== undefined) throw new InvalidArgumentError(`'${dots}' is not a name`);
    const path = '/api/v2/' + segments.map((s) => encodeURIComponent(String(s))).join('/');
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined) search.set(key, String(value));
    const qs = search.toString();
    return qs ? `${path}?${qs}` : path;
  }

  /** The URL an answer cites for a path (the service's public address). */
  cite(path: string): string {
    return this.citeBase + path;
  }

  async getJson<T>(path: string): Promise<ApiAnswer<T>> {
    const { text, citation } = await this.send('GET', path);
    return { body: JSON.parse(text) as T, citation };
  }

  async getText(path: string): Promise<ApiAnswer<string>> {
    const { text, citation } = await this.send('GET', path);
    return { body: text, citation };
  }

  /** The API's few POST routes that write nothing (an evaluation's replay). */
  async postJson<T>(path: string): Promise<ApiAnswer<T>> {
    const { text, citation } = await this.send('POST', path);
    return { body: JSON.parse(text) as T, citation };
  }

  private async send(method: string, path: string): Promise<{ text: string; citation: Citation }> {
    const headers: Record<string, string> = { authorization: this.options.authorization, accept: 'application/json' };
    if (this.options.requestId) headers['x-request-id'] = this.options.requestId;
    let res: Response;
    try {
      res = await fetch(this.base + path, { method, headers, signal: AbortSignal.timeout(this.options.timeoutMs ?? 30_000), redirect: 'follow' });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      throw new ApiError(503, `The Veritrail API could not be reached (${cause})`);
    }
    const bytes = Buffer.from(await res.arrayBuffer());
    if (bytes.length > MAX_ANSWER_BYTES) throw new ApiError(413, `The API's answer is larger than ${MAX_ANSWER_BYTES} bytes; ask for a smaller page`);
    const text = bytes.toString('utf8');
    const citation = { url: this.cite(path), sha256: createHash('sha256').update(bytes).digest('hex') };
    if (!res.ok) throw new ApiError(res.status, apiMessage(res.status, text), citation);
    return { text, citation };
  }
}

/** The `message` of the API's error body `{message, errors}`, with its field errors; else the status alone. */
function apiMessage(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as { message?: unknown; errors?: unknown };
    if (typeof body.message === 'string') {
      const fields = body.errors && typeof body.errors === 'object' ? Object.entries(body.errors as Record<string, unknown>) : [];
      return fields.length ? `${body.message} (${fields.map(([k, v]) => `${k}: ${String(v)}`).join('; ')})` : body.message;
    }
  } catch {
    // not JSON: fall through
  }
  return `The API answered ${status}`;
}
