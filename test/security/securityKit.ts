/** What one raw HTTP call answered. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body parsed as JSON ({} when empty or not JSON). */
  readonly json: Record<string, unknown>;
}

/** Calls `base + path` with any headers and a JSON (or raw string) body, whatever the status. */
export async function send(
  base: string,
  method: string,
  path: string,
  options: { auth?: string; body?: unknown; raw?: string; headers?: Record<string, string> } = {},
): Promise<RawAnswer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth !== undefined) headers['authorization'] = options.auth;
  const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  if (payload !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    ...(payload === undefined ? {} : { body: payload }),
  });
  const text = await response.text();
  let json: Record<string, unknown> = {};
  try {
    json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    // Not JSON (e.g. a served file): `text` has it.
  }
  return { status: response.status, headers: response.headers, text, json };
}

/**
 * Spellings of a token that base64 decoders read as the same bytes: padding, the standard alphabet
 * for the URL-safe one, and the last character with its unused low bit flipped.
 */
export function tokenVariants(token: string): Record<string, string> {
  const last = token.at(-1) ?? 'A';
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const flipped = alphabet[alphabet.indexOf(last) ^ 1] ?? last;
  return {
    'one = appended': `${token}=`,
    'two = appended': `${token}==`,
    'padding inside each part': token
      .split('.')
      .map((part) => `${part}=`)
      .join('.'),
    'last character low bit flipped': `${token.slice(0, -1)}${flipped}`,
    'standard alphabet (+/ for -_)': token.replace(/-/g, '+').replace(/_/g, '/'),
  };
}
