// The public API (/api/v2), called with the session cookie. Writes repeat the anti-forgery cookie in a header.

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
  ) {
    super(message);
  }
}

function csrfToken(): string {
  const match = /(?:^|;\s*)vt_csrf=([^;]*)/.exec(document.cookie);
  return match ? match[1] : '';
}

export async function call(method: string, path: string, body?: unknown): Promise<Response> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (method !== 'GET') headers['x-csrf-token'] = csrfToken();
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(`/api/v2${path}`, { method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) {
    let parsed: unknown = null;
    try {
      parsed = await res.json();
    } catch {
      parsed = null;
    }
    const message = (parsed as { message?: string } | null)?.message ?? `${res.status} ${res.statusText}`;
    if (res.status === 401 && !path.startsWith('/session')) window.dispatchEvent(new CustomEvent('vt:signed-out'));
    throw new ApiError(res.status, message, parsed);
  }
  return res;
}

export async function get<T = any>(path: string): Promise<T> {
  return (await call('GET', path)).json() as Promise<T>;
}

export async function text(path: string): Promise<string> {
  return (await call('GET', path)).text();
}

export async function post<T = any>(path: string, body?: unknown): Promise<T> {
  const res = await call('POST', path, body);
  return res.status === 204 ? (undefined as T) : (res.json() as Promise<T>);
}

export async function del(path: string): Promise<void> {
  await call('DELETE', path);
}
