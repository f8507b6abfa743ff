import type { NodeLeft } from '../../proto/gen/chorus/v1/common.js';
import type { GuildReply, GuildRequest, MemberPresence } from '../../proto/gen/chorus/v1/guild.js';
import { isJsonObject, parseJson } from '../../src/domain/jsonValue.js';
import { ActorKind } from '../runtime/ActorKind.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { DEFAULT_LARGE_GUILD_MEMBERS, callerId, emptyReply, jsonReply } from './GuildRuntime.js';
import { requireMember } from './guildPermissions.js';
import type { GuildState } from './GuildState.js';
import { dispatchEvent } from './GuildFanout.js';
import { recheckVoiceRooms } from './voiceRoomTells.js';

/** A member's presence as others see it (not offline: offline members have none). */
export interface PublicPresence {
  readonly status: string;
  readonly activities: unknown[];
  readonly client_status: Record<string, unknown>;
}

const PUBLIC_STATUSES = new Set(['online', 'idle', 'dnd', 'offline']);

/**
 * Above this many members (rt.largeGuildMembers, CHORUS_LARGE_GUILD_MEMBERS, by default Discord's
 * large_threshold for users, 250) a guild stops sending PRESENCE_UPDATE to user accounts: in a big guild most connected members are not looking at it, and one status change per member
 * would otherwise reach every session, a cost that grows with the square of the guild. Bots with GUILD_PRESENCES
 * still get every update.
 */
export const LARGE_GUILD_MEMBERS = DEFAULT_LARGE_GUILD_MEMBERS;

function parsed(text: string): unknown {
  try {
    return parseJson(text);
  } catch {
    return undefined;
  }
}

/** True when the member is a bot: GUILD_PRESENCES gates presences for bots; user accounts get them regardless. */
export function isBotMember(state: GuildState, userId: string): boolean {
  return state.members.get(userId)?.user['bot'] === true;
}

/** The PRESENCE_UPDATE / `presences` entry of one member in this guild. */
export function presenceJson(guildId: string, userId: string, presence: PublicPresence): Record<string, unknown> {
  return {
    user: { id: userId },
    guild_id: guildId,
    status: presence.status,
    activities: presence.activities,
    client_status: presence.client_status,
  };
}

/** The `presences` of GUILD_CREATE / READY guilds: members not offline, at most `limit`. */
export function onlinePresences(state: GuildState, limit: number): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const [userId, presence] of state.presences) {
    if (out.length >= limit) break;
    if (state.members.has(userId)) out.push(presenceJson(state.id, userId, presence));
  }
  return out;
}

/**
 * member_presence (from the User actor): keeps the member's public presence in memory and fans
 * PRESENCE_UPDATE out to the sessions with GUILD_PRESENCES (users identify with every intent unless
 * they say otherwise), except the user's own: those get their own state otherwise (Discord: SESSIONS_REPLACE).
 */
export function memberPresence(rt: GuildRuntime, command: MemberPresence): GuildReply {
  const state = rt.state;
  const userId = command.userId;
  if (!state.members.has(userId) || !PUBLIC_STATUSES.has(command.status)) return emptyReply();
  const activities = parsed(command.activitiesJson);
  const clientStatus = parsed(command.clientStatusJson);
  const presence: PublicPresence = {
    status: command.status,
    activities: Array.isArray(activities) ? activities : [],
    client_status: isJsonObject(clientStatus) ? clientStatus : {},
  };
  const before = state.presences.get(userId);
  if (presence.status === 'offline') {
    if (before === undefined) return emptyReply(); // offline already (or never seen since activation)
    state.presences.delete(userId);
  } else {
    state.presences.set(userId, presence);
  }
  const event = dispatchEvent('PRESENCE_UPDATE', presenceJson(state.id, userId, presence));
  if (state.members.size > rt.largeGuildMembers) {
    // A large guild: user accounts are passive here (friends still hear through the User actor); bots by intent.
    rt.fanout.sendToBots(event, (other) => other !== userId);
  } else {
    rt.fanout.send(
      event,
      (other) => other !== userId,
      '',
      (other) => !isBotMember(state, other),
    );
  }
  return emptyReply();
}

/**
 * widget.json `members` and `presence_count`: the online members, anonymised as Discord does (ids are list
 * positions, no discriminator, avatar only through avatar_url), at most 100.
 */
export function widgetPresences(state: GuildState): { members: Record<string, unknown>[]; presence_count: number } {
  const members: Record<string, unknown>[] = [];
  let count = 0;
  for (const [userId, presence] of state.presences) {
    const member = state.members.get(userId);
    if (!member) continue;
    count += 1;
    if (members.length >= 100) continue;
    const user = member.user as { username?: unknown; global_name?: unknown } | undefined;
    const name =
      member.nick ?? (typeof user?.global_name === 'string' ? user.global_name : undefined) ?? user?.username;
    members.push({
      id: String(members.length),
      username: typeof name === 'string' ? name : '',
      discriminator: '0000',
      avatar: null,
      status: presence.status,
      avatar_url: '',
    });
  }
  return { members, presence_count: count };
}

/**
 * node_left (from this node's router): a node left the cluster. Each session of a member shown online
 * hears it: one whose socket that node held detaches, and one whose actor died there is re-activated by
 * the tell (from the session store) and detaches too. Either ends after the resume window unless its
 * client resumes, and the member's User actor then says offline. Nobody else would wake those sessions
 * in a quiet guild, and the member would stay online here forever.
 */
export function nodeLeft(rt: GuildRuntime, command: NodeLeft): GuildReply {
  if (!rt.exists) return emptyReply();
  recheckVoiceRooms(rt);
  for (const userId of rt.state.presences.keys()) {
    for (const sessionId of rt.fanout.sessionsOf(userId)) {
      rt.ctx.tell(ActorKind.Session, sessionId, { command: { $case: 'nodeLeft', nodeLeft: command } });
    }
  }
  return emptyReply();
}

/** list_presences (members): every member's presence that is not offline, as PRESENCE_UPDATE carries it. */
export function listPresences(rt: GuildRuntime, request: GuildRequest): GuildReply {
  requireMember(rt.state, callerId(request.caller));
  return jsonReply(onlinePresences(rt.state, Number.MAX_SAFE_INTEGER));
}
