import type { ApplicationTarget, UserReply } from '../../proto/gen/chorus/v1/user.js';
import { BadRequestError, MissingAccessError, UnknownEntityError } from '../../src/domain/errors.js';
import { Permission } from '../../src/domain/permissions.js';
import { ActorKind } from '../runtime/ActorKind.js';
import type { ApplicationRecord, UserRecord } from '../runtime/ports/records.js';
import { describeApplication } from './applicationHandlers.js';
import { guildSummaries } from './guildListing.js';
import { publicUser } from './userJson.js';
import { jsonReply, requireSelf, type UserTurn } from './userTurn.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { ApplicationAuthorizeSchema } from '../../src/contract/index.js';

/** The application and its bot, when the caller may add that bot (public, or the caller's own). */
async function addableApplication(
  turn: UserTurn,
  applicationId: string,
): Promise<{ app: ApplicationRecord; bot: UserRecord | undefined }> {
  const app = await turn.stores.applications.get(applicationId);
  if (!app) throw new UnknownEntityError('application');
  if (!app.bot_public && app.owner_id !== turn.user.id)
    throw new MissingAccessError('This bot is private: only its owner can add it.');
  const bot = app.bot_user_id === null ? undefined : await turn.stores.users.get(app.bot_user_id);
  return { app, bot };
}

/** GET /oauth2/authorize: the application, its bot, the caller, and the guilds where the caller has MANAGE_GUILD. */
export async function getAuthorize(turn: UserTurn, request: ApplicationTarget): Promise<UserReply> {
  const caller = requireSelf(turn, request);
  const { app, bot } = await addableApplication(turn, request.applicationId);
  const summaries = await guildSummaries(turn, caller, [...turn.guildIds], false);
  const guilds = summaries
    .filter((guild) => (BigInt(guild.permissions) & Permission.MANAGE_GUILD) !== 0n)
    .map((guild) => ({
      id: guild.id,
      name: guild.name,
      icon: guild.icon,
      mfa_level: 0,
      permissions: guild.permissions,
    }));
  return jsonReply({
    application: await describeApplication(turn, app),
    bot: bot ? { ...publicUser(bot), approximate_guild_count: 0 } : undefined,
    user: publicUser(turn.user),
    authorized: false,
    guilds,
  });
}

/**
 * POST /oauth2/authorize with scope bot: asks the Guild to add the bot (the Guild checks the caller's
 * MANAGE_GUILD). Resolves to `{authorized}`; the edge turns it into the redirect location.
 */
export async function authorizeApplication(turn: UserTurn, request: ApplicationTarget): Promise<UserReply> {
  const caller = requireSelf(turn, request);
  const form = bodyOf(ApplicationAuthorizeSchema, request.body);
  const { bot } = await addableApplication(turn, request.applicationId);
  if (!bot) throw new BadRequestError('This application has no bot user.', 0);
  if (!form.authorize) return jsonReply({ authorized: false });
  await turn.ctx.ask(ActorKind.Guild, form.guild_id, {
    command: {
      $case: 'authorizeBot',
      authorizeBot: { caller, botUserJson: JSON.stringify(publicUser(bot)), permissions: form.permissions },
    },
  });
  return jsonReply({ authorized: true });
}
