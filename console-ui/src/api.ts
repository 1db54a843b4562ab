/**
 * The console talks to the service through the management API (as any integrator does) and a few
 * console routes. The session cookie authenticates; every write carries the session's CSRF token.
 */

export type Messages = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: Messages,
  ) {
    super(Object.values(messages).flat().join(" ") || `Request failed (${status}).`);
  }
}

let csrfToken = "";
export function setCsrfToken(token: string): void {
  csrfToken = token;
}

type Params = Record<string, string | number | boolean | undefined | null | object>;

function query(params: Params): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : "";
}

async function parse<T>(res: Response): Promise<T> {
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    throw new ApiError(res.status, { server: [`The service answered ${res.status} without a readable body.`] });
  }
  const b = body as { status?: string; message?: unknown };
  if (!res.ok || b.status === "error") {
    const messages = typeof b.message === "object" && b.message !== null ? (b.message as Messages) : { server: [String(b.message ?? res.status)] };
    if (res.status === 401) window.dispatchEvent(new CustomEvent("console:signed-out"));
    throw new ApiError(res.status, messages);
  }
  return body as T;
}

/** A reading call: GET with query parameters. */
export async function get<T = Record<string, unknown>>(path: string, params: Params = {}): Promise<T> {
  const res = await fetch(path + query(params), { headers: { accept: "application/json" }, credentials: "same-origin" });
  return parse<T>(res);
}

/** A reading call of a route with write access (it answers a secret): GET with the CSRF token, as the API asks of the console's writes. */
export async function getGuarded<T = Record<string, unknown>>(path: string, params: Params = {}): Promise<T> {
  const res = await fetch(path + query(params), { headers: { accept: "application/json", "x-csrf-token": csrfToken }, credentials: "same-origin" });
  return parse<T>(res);
}

/** A writing call: POST with a JSON body and the CSRF token. */
export async function post<T = Record<string, unknown>>(path: string, body: Params = {}): Promise<T> {
  const clean: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) if (v !== undefined && v !== null) clean[k] = v;
  const res = await fetch(path, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json", "x-csrf-token": csrfToken },
    body: JSON.stringify(clean),
    credentials: "same-origin",
  });
  return parse<T>(res);
}

export function csrf(): string {
  return csrfToken;
}
