/** A Discord error body. */
export interface ApiError {
  code: number;
  message: string;
  errors?: Record<string, { _errors?: { code: string; message: string }[] }>;
}

/** A user object (public, or private for the caller), as the fields these tests read. */
export interface ApiUser {
  id: string;
  username: string;
  discriminator: string;
  avatar: string | null;
  accent_color: number | null;
  bot?: boolean;
  bio?: string;
  email?: string | null;
  mfa_enabled?: boolean;
  /** Only in PATCH /users/@me answers that changed the password. */
  token?: string;
}

/** A DM or group DM channel. */
export interface ApiChannel {
  id: string;
  type: number;
  name?: string | null;
  owner_id?: string;
  recipients: ApiUser[];
}

/** An application. */
export interface ApiApplication {
  id: string;
  name: string;
  description: string;
  bot_public: boolean;
  verify_key: string;
  owner?: ApiUser;
  bot?: ApiUser;
}

/** A relationship item of UserRelationsResponse. */
export interface ApiRelationship {
  id: string;
  type: number;
  nickname: null;
  user: ApiUser;
}

/** A partial guild of GET /users/@me/guilds. */
export interface ApiGuildSummary {
  id: string;
  name: string;
  owner: boolean;
  permissions: string;
}

/** A raw answer: status and parsed JSON body (undefined when empty). */
export interface Answer<T> {
  readonly status: number;
  readonly body: T;
}

/** Calls the API with an optional Authorization value and JSON body, whatever the status. */
export async function call<T = ApiError>(
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
export function fieldCodes(body: ApiError, field: string): string[] {
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
