import { randomInt } from 'node:crypto';
import { ConflictError, ValidationError } from '../../src/domain/errors.js';
import { DEFAULT_USER_RIGHTS } from '../../src/domain/rights.js';
import type { UserRecord } from '../runtime/ports/records.js';
import type { UserStore } from '../runtime/ports/stores.js';

/** How many random discriminators are tried before a username counts as full. */
const DISCRIMINATOR_ATTEMPTS = 8;

/** A random discriminator "0001".."9999" ("0000" is never handed out). */
export function randomDiscriminator(): string {
  return String(randomInt(1, 10_000)).padStart(4, '0');
}

/** The 50035 Discord answers when a username has no free discriminator left. */
export function usernameFullError(field = 'username'): ValidationError {
  return ValidationError.field(
    field,
    'USERNAME_TOO_MANY_USERS',
    'Too many users have this username, please try another.',
  );
}

/** The fields of a brand-new account; the caller sets credentials and the bot flag. */
export function newUserRecord(id: string, username: string, nowMs: number): UserRecord {
  return {
    id,
    username,
    discriminator: randomDiscriminator(),
    global_name: null,
    email: null,
    password_hash: null,
    avatar: null,
    banner: null,
    bio: '',
    accent_color: null,
    pronouns: '',
    bot: false,
    flags: 0,
    public_flags: 0,
    premium_type: 0,
    verified: false,
    mfa_enabled: false,
    locale: 'en-US',
    rights: DEFAULT_USER_RIGHTS.toString(),
    token_generation: 0,
    revoked_tokens: [],
    settings: {},
    guild_settings: {},
    notes: {},
    relationships: {},
    created_at: new Date(nowMs).toISOString(),
  };
}

/** True when a ConflictError is about the email (the store names the rule it broke). */
export function isEmailConflict(error: unknown): boolean {
  return error instanceof ConflictError && /email/i.test(error.message);
}

/**
 * Writes a record whose username#discriminator must be unique, drawing a new random discriminator
 * on each tag conflict (`write` is create or update). An email conflict passes through; a username
 * with no free tag after a few draws is a 50035 on `field`.
 */
export async function writeWithFreeTag(
  user: UserRecord,
  write: (user: UserRecord) => Promise<void>,
  field = 'username',
): Promise<UserRecord> {
  let candidate = user;
  for (let attempt = 0; attempt < DISCRIMINATOR_ATTEMPTS; attempt += 1) {
    try {
      await write(candidate);
      return candidate;
    } catch (error) {
      if (!(error instanceof ConflictError) || isEmailConflict(error)) throw error;
      candidate = { ...candidate, discriminator: randomDiscriminator() };
    }
  }
  throw usernameFullError(field);
}

/** Creates a user in the store with a free discriminator (see writeWithFreeTag). */
export function createWithFreeTag(users: UserStore, user: UserRecord): Promise<UserRecord> {
  return writeWithFreeTag(user, (candidate) => users.create(candidate));
}
