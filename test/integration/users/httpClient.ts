/** A raw answer: status and parsed JSON body (undefined when empty). */
export interface Answer<T = any> {
  readonly status: number;
  readonly body: T;
}

/** Calls the API with an optional Authorization value and JSON body, whatever the status. */
export async function call<T = any>(
  base: string,
  method: string,
  path: string,
  options: { auth?: string; body?: unknown; rawBody?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (options.auth !== undefined) headers['authorization'] = options.auth;
  const payload = options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (payload !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** The `_errors` codes Discord's 50035 tree holds for one top-level field. */
export function fieldCodes(
  body: { errors?: Record<string, { _errors?: { code: string }[] }> },
  field: string,
): string[] {
  return body.errors?.[field]?._errors?.map((error) => error.code) ?? [];
}

/**
 * Polls `probe` until it returns a value: for effects another actor applies after the request
 * returned (a peer's relationship, a guild telling its members), which no event signals over HTTP.
 */
export async function waitFor<T>(probe: () => Promise<T | undefined>, attempts = 100): Promise<T> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const value = await probe();
    if (value !== undefined) return value;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error(`condition not met after ${attempts} polls`);
}
