import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import type { UserReply } from '../../proto/gen/chorus/v1/user.js';
import { MissingAccessError, UnauthorizedError, ValidationError } from '../../src/domain/errors.js';
import { verifyPassword } from '../../src/domain/passwords.js';
import { signToken } from '../../src/domain/tokens.js';
import { isJsonObject, type JsonObject } from '../../src/domain/jsonValue.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import type { UserRecord } from '../runtime/ports/records.js';
import type { Stores } from '../runtime/ports/stores.js';
import { repairUserRecord } from './userRecordRepair.js';

/** Options of a User actor (and of AccountService): the token key and the scrypt cost. */
export interface UserActorOptions {
  readonly tokenSecret: string;
  readonly passwordCost: number;
}

/** What a handler may use during one turn of a User actor. */
export interface UserTurn {
  readonly ctx: ActorContext;
  readonly stores: Stores;
  readonly options: UserActorOptions;
  /** The current record; never mutated in place: handlers build the next one and `commit` it. */
  readonly user: UserRecord;
  readonly guildIds: ReadonlySet<string>;
  /**
   * Writes `next` through to storage, then makes it current (ConflictError leaves the old one); the
   * avatar and banner it replaced or cleared are deleted then.
   */
  commit(next: UserRecord): Promise<void>;
  /** Deletes images (e.g. an application's old icon) a committed change stopped referencing. */
  deleteImages(keys: readonly string[]): Promise<void>;
  /** Sends an event to this user's own sessions (shard 0, intent-filtered). */
  dispatch(event: string, data: unknown, intent?: number): void;
}

/** A reply carrying a JSON document. */
export function jsonReply(value: unknown): UserReply {
  return { reply: { $case: 'json', json: { json: JSON.stringify(value) } } };
}

/** A reply with no body (the edge answers 204). */
export function emptyReply(): UserReply {
  return { reply: { $case: 'empty', empty: {} } };
}

/** The caller of a command; its absence is a malformed envelope, treated as unauthenticated. */
export function callerOf(request: { caller?: Caller | undefined }): Caller {
  if (!request.caller?.userId) throw new UnauthorizedError();
  return request.caller;
}

/** Requires the caller to be this actor's user (commands about "@me"). */
export function requireSelf(turn: UserTurn, request: { caller?: Caller | undefined }): Caller {
  const caller = callerOf(request);
  if (caller.userId !== turn.user.id) throw new MissingAccessError();
  return caller;
}

/**
 * Parses a body that has no spec schema (the handler checks its fields itself); a body with a schema is read with
 * bodyOf() instead. Anything but a JSON object reads as an empty one.
 */
export function parseLoose(body: string, what = 'body'): JsonObject {
  try {
    const parsed: unknown = body === '' ? {} : JSON.parse(body);
    return isJsonObject(parsed) ? parsed : {};
  } catch {
    throw new ValidationError({ _errors: [{ code: 'JSON_INVALID', message: `Invalid JSON ${what}` }] });
  }
}

/** The `password` field of a body without schema (disable, delete), when it is a string. */
export function passwordOf(body: string): string | undefined {
  const password = parseLoose(body)['password'];
  return typeof password === 'string' ? password : undefined;
}

/** A token for `user` at its current generation. */
export function issueToken(options: UserActorOptions, user: UserRecord, nowMs: number): string {
  return signToken(options.tokenSecret, { userId: user.id, generation: user.token_generation, issuedAtMs: nowMs });
}

/** Requires `password` to match the user's; 400 50035 on `password` otherwise (as Discord answers). */
export async function requirePassword(user: UserRecord, password: string | undefined): Promise<void> {
  const ok =
    password !== undefined && user.password_hash !== null && (await verifyPassword(password, user.password_hash));
  if (!ok) throw ValidationError.field('password', 'PASSWORD_DOES_NOT_MATCH', 'Password does not match.');
}

/** A copy of `record` without `key` (records are plain JSON maps). */
export function withoutKey<V>(record: Readonly<Record<string, V>>, key: string): Record<string, V> {
  return Object.fromEntries(Object.entries(record).filter(([name]) => name !== key));
}

/**
 * A copy of the record to change and commit (records hold only JSON data). The actor keeps records repaired
 * (bounded in depth and size), so the clone cannot overflow; should one still, the copy is of the repaired record.
 */
export function nextRecord(user: UserRecord): UserRecord {
  try {
    return structuredClone(user);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return structuredClone(repairUserRecord(user));
  }
}
