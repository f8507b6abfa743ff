import type { ApplicationTarget, UserBodyRequest, UserReply, UserRequest } from '../../proto/gen/chorus/v1/user.js';
import { BadRequestError, ForbiddenError, UnknownEntityError } from '../../src/domain/errors.js';
import type { ApplicationRecord, UserRecord } from '../runtime/ports/records.js';
import { createWithFreeTag, newUserRecord, writeWithFreeTag } from './accountRecords.js';
import { applicationJson, checkApplicationName, modifiedApplication, newApplication } from './applicationJson.js';
import { withSigningKey } from './applicationKeys.js';
import { botUsername, checkUsername } from './usernames.js';
import { replacedImageKeys } from '../../src/domain/blobKeys.js';
import { imageHash } from '../../src/domain/imageHash.js';
import { privateUser, publicUser } from './userJson.js';
import { callerOf, issueToken, jsonReply, nextRecord, requireSelf, type UserTurn } from './userTurn.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { ApplicationCreateSchema, ApplicationModifySchema, BotModifySchema } from '../../src/contract/index.js';

const unknownApplication = (): UnknownEntityError => new UnknownEntityError('application');

/**
 * The application JSON with its owner and bot looked up (this actor's own record from memory); an
 * application stored without a signing key gets its key pair first, so `verify_key` is always real.
 */
export async function describeApplication(turn: UserTurn, stored: ApplicationRecord): Promise<Record<string, unknown>> {
  const app = await withSigningKey(turn.stores.applications, stored);
  const lookup = async (id: string | null): Promise<UserRecord | undefined> =>
    id === null ? undefined : id === turn.user.id ? turn.user : turn.stores.users.get(id);
  return applicationJson(app, await lookup(app.owner_id), await lookup(app.bot_user_id));
}

/** An application the caller (this actor's user) owns, or whose bot it is; 404 10002 for anything else. */
async function ownApplication(turn: UserTurn, applicationId: string, allowBot: boolean): Promise<ApplicationRecord> {
  const self = turn.user.id;
  const app =
    applicationId === ''
      ? await turn.stores.applications.findByBotUser(self)
      : await turn.stores.applications.get(applicationId);
  if (!app) throw unknownApplication();
  if (app.owner_id !== self && !(allowBot && app.bot_user_id === self)) throw unknownApplication();
  return app;
}

/** POST /applications. */
export async function createApplication(turn: UserTurn, request: UserBodyRequest): Promise<UserReply> {
  if (requireSelf(turn, request).bot) throw new ForbiddenError('Bots cannot use this endpoint', 20_001);
  const form = bodyOf(ApplicationCreateSchema, request.body);
  const app = newApplication(turn.ctx.ids.next(), turn.user.id, checkApplicationName(form.name));
  await turn.stores.applications.create(app);
  return jsonReply(await describeApplication(turn, app));
}

/** GET /applications: the caller's applications. */
export async function listApplications(turn: UserTurn, request: UserRequest): Promise<UserReply> {
  requireSelf(turn, request);
  const apps = await turn.stores.applications.listByOwner(turn.user.id);
  return jsonReply(await Promise.all(apps.map((app) => describeApplication(turn, app))));
}

/** GET /applications/{id} (owner or its bot) and /applications/@me (empty id: the calling bot's own). */
export async function getApplication(turn: UserTurn, request: ApplicationTarget): Promise<UserReply> {
  requireSelf(turn, request);
  return jsonReply(await describeApplication(turn, await ownApplication(turn, request.applicationId, true)));
}

/** PATCH /applications/{id} (owner, or the bot for its own application). */
export async function updateApplication(turn: UserTurn, request: ApplicationTarget): Promise<UserReply> {
  requireSelf(turn, request);
  const app = await ownApplication(turn, request.applicationId, true);
  const next = modifiedApplication(app, bodyOf(ApplicationModifySchema, request.body));
  await turn.stores.applications.update(next);
  await turn.deleteImages(replacedImageKeys('app-icons', app.id, app.icon, next.icon));
  return jsonReply(await describeApplication(turn, next));
}

/**
 * POST /applications/{id}/bot (owner's actor): creates the bot user; resolves to `{token}`. The bot's user
 * id is the application's id, as on Discord (Discordeno derives the application id from a token's user id).
 */
export async function createBot(turn: UserTurn, request: ApplicationTarget): Promise<UserReply> {
  requireSelf(turn, request);
  const app = await ownApplication(turn, request.applicationId, false);
  if (app.bot_user_id !== null) throw new BadRequestError('This application already has a bot.', 0);
  const now = turn.ctx.clock.now();
  const record = newUserRecord(app.id, botUsername(app.name), now);
  record.bot = true;
  record.verified = true;
  const bot = await createWithFreeTag(turn.stores.users, record);
  await turn.stores.applications.update({ ...app, bot_user_id: bot.id });
  return jsonReply({ token: issueToken(turn.options, bot, now) });
}

/** The application whose bot this actor's user is, when the caller owns it; 404 10002 otherwise. */
async function applicationOfThisBot(turn: UserTurn, request: ApplicationTarget): Promise<ApplicationRecord> {
  const caller = callerOf(request);
  const app = await turn.stores.applications.get(request.applicationId);
  if (!app || app.owner_id !== caller.userId || app.bot_user_id !== turn.user.id) throw unknownApplication();
  return app;
}

/** POST /applications/{id}/bot/reset (bot's actor): a new token; every older token of the bot stops working. */
export async function resetBotToken(turn: UserTurn, request: ApplicationTarget): Promise<UserReply> {
  await applicationOfThisBot(turn, request);
  const next = nextRecord(turn.user);
  next.token_generation += 1;
  next.revoked_tokens = [];
  await turn.commit(next);
  return jsonReply({ token: issueToken(turn.options, next, turn.ctx.clock.now()) });
}

/** PATCH /applications/{id}/bot (bot's actor): the bot's username and avatar. */
export async function updateBot(turn: UserTurn, request: ApplicationTarget): Promise<UserReply> {
  await applicationOfThisBot(turn, request);
  const form = bodyOf(BotModifySchema, request.body);
  const next = nextRecord(turn.user);
  if (form.username !== undefined) next.username = checkUsername(form.username, 'username');
  if (form.avatar !== undefined) next.avatar = imageHash('avatar', form.avatar);
  const saved = await writeWithFreeTag(next, (candidate) => turn.commit(candidate));
  turn.dispatch('USER_UPDATE', privateUser(saved));
  return jsonReply(publicUser(saved));
}
