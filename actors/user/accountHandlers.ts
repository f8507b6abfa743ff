import type {
  Authenticate,
  ProfileRequest,
  UserBodyRequest,
  UserReply,
  UserRequest,
} from '../../proto/gen/chorus/v1/user.js';
import { ConflictError, ForbiddenError, ValidationError } from '../../src/domain/errors.js';
import { hashPassword } from '../../src/domain/passwords.js';
import { verifyToken } from '../../src/domain/tokens.js';
import type { UserRecord } from '../runtime/ports/records.js';
import { isEmailConflict, writeWithFreeTag } from './accountRecords.js';
import { checkUsername } from './usernames.js';
import { imageHash } from '../../src/domain/imageHash.js';
import { privateUser, publicUser, userProfile } from './userJson.js';
import {
  callerOf,
  emptyReply,
  issueToken,
  jsonReply,
  nextRecord,
  passwordOf,
  requirePassword,
  requireSelf,
  type UserTurn,
} from './userTurn.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { UserModifySchema, UserProfileModifySchema } from '../../src/contract/index.js';

/** Revoked-token digests kept per user; past this, logout revokes every token (generation bump) instead. */
const MAX_REVOKED_TOKENS = 500;

/** GET /users/@me. */
export function getMe(turn: UserTurn, request: UserRequest): UserReply {
  requireSelf(turn, request);
  return jsonReply(privateUser(turn.user));
}

/** GET /users/{id}: any caller. */
export function getPublic(turn: UserTurn): UserReply {
  return jsonReply(publicUser(turn.user));
}

/**
 * PATCH /users/@me. A new password or email needs the current `password` (50035 on it otherwise);
 * a new password revokes every older token and the reply carries a fresh `token`.
 */
export async function updateMe(turn: UserTurn, request: UserBodyRequest): Promise<UserReply> {
  requireSelf(turn, request);
  const form = bodyOf(UserModifySchema, request.body);
  const user = turn.user;
  const next = nextRecord(user);
  const email = form.email?.trim().toLowerCase();
  const emailChanges = email !== undefined && email !== user.email;
  if (form.new_password !== undefined || emailChanges) await requirePassword(user, form.password);
  if (form.username !== undefined) next.username = checkUsername(form.username, 'username');
  if (form.discriminator !== undefined) {
    if (!/^\d{4}$/.test(form.discriminator) || form.discriminator === '0000') {
      throw ValidationError.field('discriminator', 'DISCRIMINATOR_INVALID', 'Must be four digits, not 0000.');
    }
    next.discriminator = form.discriminator;
  }
  if (form.avatar !== undefined) next.avatar = imageHash('avatar', form.avatar);
  if (form.banner !== undefined) next.banner = imageHash('banner', form.banner);
  if (form.bio !== undefined) next.bio = form.bio;
  if (form.accent_color !== undefined) next.accent_color = form.accent_color;
  if (emailChanges) {
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
      throw ValidationError.field('email', 'EMAIL_TYPE_INVALID_EMAIL', 'Not a well formed email address.');
    next.email = email;
    next.verified = false;
  }
  const passwordChanges = form.new_password !== undefined;
  if (passwordChanges) {
    const password = form.new_password ?? '';
    if (password.length < 1 || password.length > 72) {
      throw ValidationError.field('new_password', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 72 in length.');
    }
    next.password_hash = await hashPassword(password, turn.options.passwordCost);
    next.token_generation += 1;
    next.revoked_tokens = [];
  }
  const saved = await save(turn, next, form.discriminator !== undefined);
  turn.dispatch('USER_UPDATE', privateUser(saved));
  const body = privateUser(saved);
  if (passwordChanges) body['token'] = issueToken(turn.options, saved, turn.ctx.clock.now());
  return jsonReply(body);
}

/** GET /users/{id}/profile: any caller; mutual guilds when asked (none with oneself). */
export async function getProfile(turn: UserTurn, request: ProfileRequest): Promise<UserReply> {
  const caller = callerOf(request);
  const user = turn.user;
  const body: Record<string, unknown> = {
    user: { ...publicUser(user), bio: user.bio },
    user_profile: userProfile(user),
    connected_accounts: [],
    premium_type: user.premium_type,
    premium_since: null,
    premium_guild_since: null,
    badges: [],
    guild_badges: [],
  };
  if (request.withMutualGuilds) {
    const theirs =
      caller.userId === user.id ? new Set<string>() : new Set(await turn.stores.guilds.guildIdsOfUser(caller.userId));
    body['mutual_guilds'] = [...turn.guildIds].filter((id) => theirs.has(id)).map((id) => ({ id, nick: null }));
  }
  return jsonReply(body);
}

/** PATCH /users/@me/profile: bio, accent colour, banner, pronouns, theme colours. */
export async function updateProfile(turn: UserTurn, request: UserBodyRequest): Promise<UserReply> {
  requireSelf(turn, request);
  const form = bodyOf(UserProfileModifySchema, request.body);
  const next = nextRecord(turn.user);
  if (form.bio !== undefined) {
    if (form.bio.length > 1024)
      throw ValidationError.field('bio', 'BASE_TYPE_MAX_LENGTH', 'Must be 1024 or fewer in length.');
    next.bio = form.bio;
  }
  if (form.accent_color !== undefined) next.accent_color = form.accent_color;
  if (form.banner !== undefined) next.banner = imageHash('banner', form.banner);
  if (form.pronouns !== undefined) {
    if (form.pronouns.length > 40)
      throw ValidationError.field('pronouns', 'BASE_TYPE_MAX_LENGTH', 'Must be 40 or fewer in length.');
    next.pronouns = form.pronouns;
  }
  if (form.theme_colors !== undefined) next.theme_colors = form.theme_colors;
  await turn.commit(next);
  turn.dispatch('USER_UPDATE', privateUser(next));
  return jsonReply(userProfile(next));
}

/** POST /auth/logout: revokes the presented token (and only it). */
export async function logout(turn: UserTurn, request: Authenticate): Promise<UserReply> {
  const claims = verifyToken(turn.options.tokenSecret, request.token);
  const user = turn.user;
  if (!claims || claims.userId !== user.id || claims.generation !== user.token_generation) return emptyReply();
  const next = nextRecord(user);
  const digest = claims.revocationKey;
  if (next.revoked_tokens.includes(digest)) return emptyReply();
  if (next.revoked_tokens.length >= MAX_REVOKED_TOKENS) {
    // Keeps the record bounded: a new generation revokes this token and every other one at once.
    next.token_generation += 1;
    next.revoked_tokens = [];
  } else {
    next.revoked_tokens.push(digest);
  }
  await turn.commit(next);
  return emptyReply();
}

/** POST /users/@me/disable: needs the password; every token stops working and login is refused. */
export async function disableAccount(turn: UserTurn, request: UserBodyRequest): Promise<UserReply> {
  await confirmAccountAction(turn, request);
  const next = nextRecord(turn.user);
  next.disabled = true;
  next.token_generation += 1;
  next.revoked_tokens = [];
  await turn.commit(next);
  return emptyReply();
}

/** POST /users/@me/delete: needs the password; the account is anonymised, its email freed, its tokens revoked. */
export async function deleteAccount(turn: UserTurn, request: UserBodyRequest): Promise<UserReply> {
  await confirmAccountAction(turn, request);
  const next = nextRecord(turn.user);
  next.deleted = true;
  next.username = `Deleted User ${(BigInt(next.id) & 0xffffffffn).toString(16).padStart(8, '0')}`;
  next.global_name = null;
  next.email = null;
  next.password_hash = null;
  next.avatar = null;
  next.banner = null;
  next.bio = '';
  next.totp_secret = null;
  next.backup_codes = [];
  next.mfa_enabled = false;
  next.token_generation += 1;
  next.revoked_tokens = [];
  const saved = await writeWithFreeTag(next, (candidate) => turn.commit(candidate));
  turn.dispatch('USER_UPDATE', privateUser(saved));
  return emptyReply();
}

async function confirmAccountAction(turn: UserTurn, request: UserBodyRequest): Promise<void> {
  const caller = requireSelf(turn, request);
  if (caller.bot) throw new ForbiddenError('Bots cannot use this endpoint', 20_001);
  await requirePassword(turn.user, passwordOf(request.body));
}

/** Commits a changed account; a taken tag draws a new discriminator unless one was asked for explicitly. */
async function save(turn: UserTurn, next: UserRecord, discriminatorChosen: boolean): Promise<UserRecord> {
  const tagChanged = next.username !== turn.user.username || next.discriminator !== turn.user.discriminator;
  try {
    if (tagChanged && !discriminatorChosen) return await writeWithFreeTag(next, (candidate) => turn.commit(candidate));
    await turn.commit(next);
    return next;
  } catch (error) {
    if (isEmailConflict(error)) {
      throw ValidationError.field('email', 'EMAIL_ALREADY_REGISTERED', 'Email is already registered.');
    }
    if (error instanceof ConflictError) {
      throw ValidationError.field(
        'discriminator',
        'USERNAME_ALREADY_TAKEN',
        'This username and tag are already taken.',
      );
    }
    throw error;
  }
}
