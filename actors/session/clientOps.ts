import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import { GatewayIntent, hasIntent } from '../../src/domain/intents.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import { getGuildMember, listGuildMembers, listGuildPresences, type MemberJson } from './guildQueries.js';
import { memberList, requestedRanges, type MemberList } from './memberList.js';
import type { MemberListWatch } from './memberListWatch.js';
import { isJsonObject, parseJson } from '../../src/domain/jsonValue.js';
import { voiceStateUpdate, type VoiceServerOptions } from './sessionVoice.js';

/** What client-op handlers may use of their session. */
export interface SessionPort {
  /** The session's context (ctx.key is the session id). */
  readonly ctx: ActorContext;
  readonly userId: string;
  /** The Identify intents (op 8 presences need GUILD_PRESENCES for bots). */
  readonly intents: number;
  readonly caller: Caller;
  /** Guilds the session is subscribed to (on its shard). */
  readonly guildIds: ReadonlySet<string>;
  /** Sends a dispatch to this session only. */
  emit(event: string, dataJson: string, intent: number): void;
  /** Op 3: the session's new presence (checked, rate-limited and told to the User actor by the session). */
  setPresence(body: unknown): void;
  /** Op 14 / 37: what the session last sent of each guild's member list, to move it by row ops. */
  readonly memberLists: MemberListWatch;
  /** Op 4: how to issue VOICE_SERVER_UPDATE. */
  readonly voice: VoiceServerOptions;
}

/** Client opcodes the session serves (the edge answers heartbeats and ignores the rest). */
export const ClientOp = {
  PresenceUpdate: 3,
  VoiceStateUpdate: 4,
  RequestGuildMembers: 8,
  LazyRequest: 14,
  GuildSubscriptionsBulk: 37,
} as const;

const CHUNK = 1000;
/** Members an op 14 list is built from (its ranges end at index 999). */
const MEMBER_LIST_MAX = 1000;
const MAX_USER_IDS = 100;

type Body = Record<string, unknown>;

const list = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined || value === null ? [] : [value]).filter(
    (item): item is string => typeof item === 'string',
  );

/** The work of one client op, for the session to run with its port. */
export const serveClientOp =
  (op: number, dataJson: string) =>
  (port: SessionPort): Promise<void> =>
    handleClientOp(port, op, dataJson);

/** Serves one client op; payloads that do not fit are ignored (the edge already checked they are JSON). */
export async function handleClientOp(port: SessionPort, op: number, dataJson: string): Promise<void> {
  const parsed = parseJson(dataJson || 'null') ?? {};
  if (typeof parsed !== 'object') return;
  const d: Body = isJsonObject(parsed) ? parsed : {};
  switch (op) {
    case ClientOp.PresenceUpdate:
      port.setPresence(d);
      return;
    case ClientOp.VoiceStateUpdate:
      await voiceStateUpdate(port, d);
      return;
    case ClientOp.RequestGuildMembers:
      for (const guildId of list(d['guild_id'])) {
        if (port.guildIds.has(guildId)) await requestGuildMembers(port, guildId, d);
      }
      return;
    case ClientOp.LazyRequest:
      if (typeof d['guild_id'] === 'string') await lazyRequest(port, d['guild_id'], d['channels']);
      return;
    case ClientOp.GuildSubscriptionsBulk: {
      const subscriptions = d['subscriptions'];
      if (!isJsonObject(subscriptions)) return;
      for (const [guildId, request] of Object.entries(subscriptions))
        await lazyRequest(port, guildId, isJsonObject(request) ? request['channels'] : undefined);
      return;
    }
    default:
      return;
  }
}

/** Op 8: GUILD_MEMBERS_CHUNK dispatches (1000 members each) for a query, a limit or a list of user ids. */
async function requestGuildMembers(port: SessionPort, guildId: string, d: Body): Promise<void> {
  const userIds = list(d['user_ids']).slice(0, MAX_USER_IDS);
  const nonce = typeof d['nonce'] === 'string' ? d['nonce'] : undefined;
  let members: MemberJson[];
  let notFound: string[] | undefined;
  if (userIds.length > 0) {
    const found = await Promise.all(userIds.map((id) => getGuildMember(port.ctx, port.caller, guildId, id)));
    members = found.filter((member): member is MemberJson => member !== undefined);
    notFound = userIds.filter((_, index) => found[index] === undefined);
  } else {
    const query = typeof d['query'] === 'string' ? d['query'] : '';
    const limit = typeof d['limit'] === 'number' && d['limit'] > 0 ? d['limit'] : query ? 100 : Number.MAX_SAFE_INTEGER;
    members = await listGuildMembers(port.ctx, port.caller, guildId, query, limit);
  }
  const chunkCount = Math.max(1, Math.ceil(members.length / CHUNK));
  // Presences only when asked and allowed: bots need GUILD_PRESENCES (Discord treats it as false otherwise).
  const withPresences =
    d['presences'] === true && (!port.caller.bot || hasIntent(port.intents, GatewayIntent.GUILD_PRESENCES));
  const presences = withPresences ? await listGuildPresences(port.ctx, port.caller, guildId) : undefined;
  for (let index = 0; index < chunkCount; index += 1) {
    const chunk: Body = {
      guild_id: guildId,
      members: members.slice(index * CHUNK, (index + 1) * CHUNK),
      chunk_index: index,
      chunk_count: chunkCount,
    };
    if (notFound && index === 0 && notFound.length > 0) chunk['not_found'] = notFound;
    if (presences) chunk['presences'] = chunkPresences(presences, chunk['members'] as MemberJson[]);
    if (nonce !== undefined) chunk['nonce'] = nonce;
    port.emit('GUILD_MEMBERS_CHUNK', JSON.stringify(chunk), 0);
  }
}

/** Op 14 / 37: one GUILD_MEMBER_LIST_UPDATE SYNC for the requested sidebar ranges. */
async function lazyRequest(port: SessionPort, guildId: string, channels: unknown): Promise<void> {
  if (!port.guildIds.has(guildId)) return;
  // Any op 14 / 37 for the guild (lists, typing, threads, activities) says the client looks at it.
  if (!port.caller.bot) {
    port.ctx.tell('guild', guildId, {
      command: { $case: 'activateSession', activateSession: { sessionId: port.ctx.key } },
    });
  }
  const ranges = requestedRanges(channels);
  if (ranges.length === 0) return;
  const list = await currentList(port, guildId);
  port.emit('GUILD_MEMBER_LIST_UPDATE', port.memberLists.sync(guildId, ranges, list), 0);
}

/** After an event moved a guild's list: the GUILD_MEMBER_LIST_UPDATE that moves the session's rows with it. */
export const refreshMemberList =
  (guildId: string) =>
  (port: SessionPort): Promise<void> =>
    moveMemberList(port, guildId);

async function moveMemberList(port: SessionPort, guildId: string): Promise<void> {
  if (!port.guildIds.has(guildId)) {
    port.memberLists.forget(guildId);
    return;
  }
  const update = port.memberLists.move(guildId, await currentList(port, guildId));
  if (update !== undefined) port.emit('GUILD_MEMBER_LIST_UPDATE', update, 0);
}

/** The guild's member list now: every member up to the list's end (the online group first, whoever they are). */
async function currentList(port: SessionPort, guildId: string): Promise<MemberList> {
  const [members, presences] = await Promise.all([
    listGuildMembers(port.ctx, port.caller, guildId, '', MEMBER_LIST_MAX),
    listGuildPresences(port.ctx, port.caller, guildId),
  ]);
  return memberList(port.userId, members, presences);
}

/** The presences of a chunk's members who are not offline, in the chunk's order. */
function chunkPresences(
  presences: ReadonlyMap<string, Record<string, unknown>>,
  members: readonly MemberJson[],
): unknown[] {
  const out: unknown[] = [];
  for (const member of members) {
    const presence = presences.get(member.user?.id ?? '');
    if (presence) out.push(presence);
  }
  return out;
}
