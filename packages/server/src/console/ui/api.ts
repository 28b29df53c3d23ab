// The console's API client: the signed-in key lives in sessionStorage only (gone with the tab), and
// every error becomes a sentence the page can show.
const KEY = 'gleaner.apiKey';

export const session = {
  key: (): string | null => sessionStorage.getItem(KEY),
  signIn: (key: string) => sessionStorage.setItem(KEY, key),
  signOut: () => sessionStorage.removeItem(KEY),
};

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

function describe(status: number, body: any): ApiError {
  if (status === 422 && Array.isArray(body?.detail)) {
    const msg = body.detail.map((d: { loc?: unknown[]; msg?: string }) => `${(d.loc ?? []).slice(1).join('.') || 'request'}: ${d.msg}`).join('; ');
    return new ApiError(status, 'VALIDATION_FAILED', msg);
  }
  return new ApiError(status, body?.code ?? 'HTTP_' + status, typeof body?.detail === 'string' ? body.detail : `the server answered ${status}`);
}

export async function api<T = any>(method: string, path: string, body?: unknown, key = session.key()): Promise<T> {
  const headers: Record<string, string> = {};
  if (key) headers['X-API-KEY'] = key;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, 'NETWORK', 'The server cannot be reached. Is it running?');
  }
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  if (!res.ok) throw describe(res.status, parsed);
  return parsed as T;
}
