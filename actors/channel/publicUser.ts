import { isJsonObject } from '../../src/domain/jsonValue.js';

/** A public user object as Discord embeds it in messages, reactions and DM recipients. */
export type PublicUser = Record<string, unknown> & { id: string };

/** True when a parsed value is a public user object: a JSON object with a string id. */
export function isPublicUser(value: unknown): value is PublicUser {
  return isJsonObject(value) && typeof value['id'] === 'string';
}

/** Fields of a user record that anyone may see; everything else (email, settings, ...) is private. */
const PUBLIC_FIELDS = [
  'username',
  'discriminator',
  'global_name',
  'avatar',
  'avatar_decoration_data',
  'banner',
  'accent_color',
  'public_flags',
] as const;

/**
 * The public user object of a user record given as JSON (private or public), or undefined when the
 * JSON is empty, malformed or has no id. `bot` and `system` appear only when true, as on Discord.
 */
export function publicUser(userJson: string): PublicUser | undefined {
  if (userJson === '') return undefined;
  let source: unknown;
  try {
    source = JSON.parse(userJson);
  } catch {
    return undefined;
  }
  return publicUserOf(source);
}

/** The public user object of a parsed user record, or undefined when it has no string id. */
export function publicUserOf(source: unknown): PublicUser | undefined {
  if (source === null || typeof source !== 'object') return undefined;
  const record = source as Record<string, unknown>;
  if (typeof record['id'] !== 'string') return undefined;
  const user: PublicUser = {
    id: record['id'],
    username: record['username'] ?? 'unknown',
    discriminator: record['discriminator'] ?? '0',
    global_name: record['global_name'] ?? null,
    avatar: record['avatar'] ?? null,
  };
  for (const field of PUBLIC_FIELDS) if (record[field] !== undefined && !(field in user)) user[field] = record[field];
  user['public_flags'] ??= 0;
  if (record['bot'] === true) user['bot'] = true;
  if (record['system'] === true) user['system'] = true;
  return user;
}

/** The placeholder for a user this channel has no snapshot of: only the id is known. */
export function unknownUser(id: string): PublicUser {
  return { id };
}

/**
 * A bounded cache of the public users a channel has seen (authors, reactors, recipients), used to
 * render mentions and reaction users without asking User actors (a Channel never awaits a User).
 * Each snapshot remembers when it was taken, so callers can refresh old ones.
 */
export class KnownUsers {
  readonly #users = new Map<string, { user: PublicUser; atMs: number }>();

  constructor(private readonly capacity = 1_000) {}

  /** Remembers (or refreshes) a user seen at `atMs`, evicting the least recently seen past capacity. */
  remember(user: PublicUser | undefined, atMs: number): void {
    if (!user) return;
    this.#users.delete(user.id);
    this.#users.set(user.id, { user, atMs });
    if (this.#users.size > this.capacity) {
      const oldest = this.#users.keys().next();
      if (oldest.done !== true) this.#users.delete(oldest.value);
    }
  }

  /** The snapshot of a user, or `{id}` when this channel has not seen them. */
  get(id: string): PublicUser {
    return this.#users.get(id)?.user ?? unknownUser(id);
  }

  /** True when a snapshot taken at or after `sinceMs` is known. */
  knowsSince(id: string, sinceMs: number): boolean {
    const entry = this.#users.get(id);
    return entry !== undefined && entry.atMs >= sinceMs;
  }
}
