import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import type { GuildReply } from '../../proto/gen/chorus/v1/guild.js';
import type { ListGuilds, UserReply } from '../../proto/gen/chorus/v1/user.js';
import { basePermissions, parsePermissions } from '../../src/domain/permissions.js';
import { compareSnowflakes } from '../../src/domain/snowflake.js';
import { ActorKind } from '../runtime/ActorKind.js';
import { jsonReply, requireSelf, type UserTurn } from './userTurn.js';
import { parseJsonObject } from '../../src/domain/jsonValue.js';

/** The partial guild of GET /users/@me/guilds (and of the OAuth2 guild picker). */
export interface GuildSummary {
  readonly id: string;
  readonly name: string;
  readonly icon: string | null;
  readonly banner: string | null;
  readonly owner: boolean;
  /** The caller's base permissions in the guild, as a decimal string. */
  readonly permissions: string;
  readonly features: unknown[];
  readonly approximate_member_count?: number;
  readonly approximate_presence_count?: number;
}

/** Most guilds one page returns (Discord's limit). */
const MAX_PAGE = 200;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

function jsonOf(reply: GuildReply): Record<string, unknown> | undefined {
  return reply.reply?.$case === 'json' ? parseJsonObject(reply.reply.json.json) : undefined;
}

/** The caller's permissions: the guild's own figure when it sends one, else computed from roles and member. */
async function permissionsIn(turn: UserTurn, caller: Caller, guild: Record<string, unknown>): Promise<string> {
  if (typeof guild['permissions'] === 'string') return guild['permissions'];
  const guildId = String(guild['id']);
  const member = jsonOf(
    await turn.ctx.ask(ActorKind.Guild, guildId, {
      command: { $case: 'getMember', getMember: { caller, userId: turn.user.id, body: '' } },
    }),
  );
  const roles = Array.isArray(guild['roles']) ? (guild['roles'] as { id: string; permissions: string }[]) : [];
  const rolePermissions = new Map(roles.map((role) => [role.id, parsePermissions(role.permissions)]));
  const memberRoles = Array.isArray(member?.['roles']) ? (member['roles'] as string[]) : [];
  const ownerId = text(guild['owner_id']);
  return basePermissions({ id: guildId, ownerId, rolePermissions }, turn.user.id, memberRoles).toString();
}

async function summaryOf(
  turn: UserTurn,
  caller: Caller,
  guildId: string,
  withCounts: boolean,
): Promise<GuildSummary | undefined> {
  try {
    const guild = jsonOf(
      await turn.ctx.ask(ActorKind.Guild, guildId, {
        command: { $case: 'getGuild', getGuild: { caller, targetId: '', withCounts } },
      }),
    );
    if (!guild) return undefined;
    const summary: GuildSummary = {
      id: guildId,
      name: text(guild['name']),
      icon: (guild['icon'] as string | null | undefined) ?? null,
      banner: (guild['banner'] as string | null | undefined) ?? null,
      owner: guild['owner_id'] === turn.user.id,
      permissions: await permissionsIn(turn, caller, guild),
      features: Array.isArray(guild['features']) ? guild['features'] : [],
    };
    if (!withCounts) return summary;
    return {
      ...summary,
      approximate_member_count: Number(guild['approximate_member_count'] ?? guild['member_count'] ?? 0),
      approximate_presence_count: Number(guild['approximate_presence_count'] ?? 0),
    };
  } catch (error) {
    // A guild that is gone or cannot answer now is left out of the list rather than failing it.
    turn.ctx.log.warn('user_guild_summary_failed', { guild: guildId, err: (error as Error).message });
    return undefined;
  }
}

/** Summaries of the given guilds, asked in parallel (User → Guild asks; a Guild never asks back). */
export async function guildSummaries(
  turn: UserTurn,
  caller: Caller,
  guildIds: readonly string[],
  withCounts: boolean,
): Promise<GuildSummary[]> {
  const summaries = await Promise.all(guildIds.map((id) => summaryOf(turn, caller, id, withCounts)));
  return summaries.filter((summary): summary is GuildSummary => summary !== undefined);
}

/** The page of guild ids GET /users/@me/guilds asks for: ascending, after/before exclusive, at most `limit`. */
export function pageOfGuildIds(ids: Iterable<string>, before: string, after: string, limit: number): string[] {
  const size = limit > 0 ? Math.min(limit, MAX_PAGE) : MAX_PAGE;
  const sorted = [...ids]
    .sort(compareSnowflakes)
    .filter(
      (id) =>
        (after === '' || compareSnowflakes(id, after) > 0) && (before === '' || compareSnowflakes(id, before) < 0),
    );
  // With only `before`, the page is the guilds closest to it, as Discord pages backwards.
  return before !== '' && after === '' ? sorted.slice(-size) : sorted.slice(0, size);
}

/** GET /users/@me/guilds. */
export async function listGuilds(turn: UserTurn, request: ListGuilds): Promise<UserReply> {
  const caller = requireSelf(turn, request);
  const page = pageOfGuildIds(turn.guildIds, request.before, request.after, request.limit);
  return jsonReply(await guildSummaries(turn, caller, page, request.withCounts));
}
