import { ActorKind } from '../../../cluster/ActorSystem.js';
import type { ChannelLocation } from '../../../proto/gen/chorus/v1/channel.js';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';
import type { GuildCommand, GuildReply } from '../../../proto/gen/chorus/v1/guild.js';
import { InternalError } from '../../domain/errors.js';
import type { EdgeContext, EdgeDeps } from '../EdgeDeps.js';
import { requireCaller, sendReply, snowflakeParam } from '../routeKit.js';
import { guildProbe, permissionFirst, type Needs } from './permissionFirst.js';

/** One Guild actor command. */
export type GuildCommandCase = NonNullable<GuildCommand['command']>;

/** Builds a Guild command once the caller and the route's guild id are known. */
export type GuildCommandFor = (
  ctx: EdgeContext,
  caller: Caller,
  guildId: string,
) => GuildCommandCase | Promise<GuildCommandCase>;

/** Asks a Guild actor. */
export function askGuild(deps: EdgeDeps, guildId: string, command: GuildCommandCase): Promise<GuildReply> {
  return deps.system.ask(ActorKind.Guild, guildId, { command });
}

/** How a guild or channel route answers, and what it needs before its body matters. */
export interface RouteOptions {
  /** The status of a JSON reply (200 by default; an empty reply is 204). */
  readonly status?: number;
  /** The least the caller must hold: a caller without it gets 403/404 rather than 400 (see permissionFirst). */
  readonly needs?: Needs;
}

/**
 * A handler for a `/guilds/{guild_id}/...` route: authenticates, asks the Guild actor and writes its
 * reply (JSON with `status`, or 204 for an empty reply). The caller is resolved first, so an
 * anonymous request answers 401 before any validation; with `needs`, a caller lacking it gets 403
 * (404 for non-members) before a 400.
 */
export function guildRoute(deps: EdgeDeps, build: GuildCommandFor, options: RouteOptions = {}) {
  const handler = async (ctx: EdgeContext): Promise<void> => {
    const caller = await requireCaller(ctx, deps);
    const guildId = snowflakeParam(ctx, 'guild_id');
    sendReply(ctx, await askGuild(deps, guildId, await build(ctx, caller, guildId)), options.status);
  };
  return options.needs === undefined ? handler : permissionFirst(guildProbe(deps, options.needs), handler);
}

/** The JSON document of a `json` reply; an InternalError if the actor answered otherwise. */
export function replyText(reply: { reply?: { $case: string } | undefined }): string {
  const outcome = reply.reply as { $case: string; json?: { json: string } } | undefined;
  if (outcome?.$case !== 'json' || !outcome.json) {
    throw new InternalError({ cause: new Error(`expected a json reply, got ${outcome?.$case ?? 'nothing'}`) });
  }
  return outcome.json.json;
}

/** A user's public record as JSON (members and bans keep it); 404 10013 for an unknown user. */
export async function publicUserJson(deps: EdgeDeps, caller: Caller, userId: string): Promise<string> {
  const reply = await deps.system.ask(ActorKind.User, userId, {
    command: { $case: 'getPublic', getPublic: { caller } },
  });
  return replyText(reply);
}

/** Where a channel lives (its guild id, '' for DMs); 404 10003 for an unknown channel. */
export async function locateChannel(deps: EdgeDeps, caller: Caller, channelId: string): Promise<ChannelLocation> {
  const reply = await deps.system.ask(ActorKind.Channel, channelId, {
    command: { $case: 'locate', locate: { caller, body: '' } },
  });
  if (reply.reply?.$case !== 'location') {
    throw new InternalError({ cause: new Error(`locate answered ${reply.reply?.$case ?? 'nothing'}`) });
  }
  return reply.reply.location;
}

/** A boolean query flag as Discord reads them: true, True or 1. */
export function flagQuery(ctx: EdgeContext, name: string): boolean {
  const raw = ctx.query[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  return value === 'true' || value === 'True' || value === '1';
}

/** The X-Audit-Log-Reason header (URL-encoded, as discord.js sends it), or undefined. */
export function auditLogReason(ctx: EdgeContext): string | undefined {
  const raw = ctx.get('x-audit-log-reason');
  if (!raw) return undefined;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}
