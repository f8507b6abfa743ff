import type {
  BanTarget,
  BulkBan,
  GuildReply,
  GuildRequest,
  MemberTarget,
  PruneRequest,
} from '../../proto/gen/chorus/v1/guild.js';
import {
  BadRequestError,
  MissingPermissionsError,
  UnknownEntityError,
  ValidationError,
} from '../../src/domain/errors.js';
import { Permission } from '../../src/domain/permissions.js';
import type { MemberRecord } from '../runtime/ports/records.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { callerId, emptyReply, jsonReply } from './GuildRuntime.js';
import type { GuildState } from './GuildState.js';
import { userSnapshot } from './guildLifecycle.js';
import { bansOf, dropMember, type BanEntry } from './guildMembership.js';
import { memberPermissions, outranks, requireGuildPermission } from './guildPermissions.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { BanCreateSchema, BulkBanSchema } from '../../src/contract/index.js';
import type { BanCreateBody } from '../../src/contract/member.js';
import { snowflakeAt } from '../../src/domain/snowflake.js';
import { ActorKind } from '../runtime/ActorKind.js';
import { holdsMessages } from '../channel/channelJson.js';

/** Who hears of bans: holders of BAN_MEMBERS or VIEW_AUDIT_LOG (docs/gateway.md §14). */
function seesBans(state: GuildState, userId: string): boolean {
  return (memberPermissions(state, userId) & (Permission.BAN_MEMBERS | Permission.VIEW_AUDIT_LOG)) !== 0n;
}

async function saveBans(rt: GuildRuntime, bans: Record<string, BanEntry>): Promise<void> {
  const state = rt.state;
  const guild = { ...state.guild, fields: { ...state.guild.fields, bans } };
  await rt.stores.guilds.saveGuild(guild);
  state.guild = guild;
}

/** How far back a ban deletes the user's messages, in seconds: delete_message_seconds, else the older _days. */
function deleteSeconds(body: BanCreateBody): number {
  return body.delete_message_seconds ?? (body.delete_message_days ?? 0) * 86_400;
}

/**
 * Tells each channel that holds messages to delete the banned user's messages of the last `seconds` (Discord deletes
 * them in every channel of the guild, whoever may see it); a tell, as Discord's purge also runs after the reply.
 */
function purgeMessages(rt: GuildRuntime, userIds: string[], seconds: number): void {
  // One below the first id of that millisecond, so a message written in it goes too.
  const sinceId = (BigInt(snowflakeAt(rt.nowMs() - seconds * 1000)) - 1n).toString();
  for (const channel of rt.state.channels.values()) {
    if (!holdsMessages(channel.type)) continue;
    rt.ctx.tell(ActorKind.Channel, channel.id, {
      command: { $case: 'purgeAuthor', purgeAuthor: { userIds, sinceId } },
    });
  }
}

/** list_bans (BAN_MEMBERS). */
export function listBans(rt: GuildRuntime, request: GuildRequest): GuildReply {
  const state = rt.state;
  requireGuildPermission(state, callerId(request.caller), Permission.BAN_MEMBERS);
  return jsonReply(Object.values(bansOf(state)));
}

/** get_ban (BAN_MEMBERS): 404 10026 when the user is not banned. */
export function getBan(rt: GuildRuntime, target: MemberTarget): GuildReply {
  const state = rt.state;
  requireGuildPermission(state, callerId(target.caller), Permission.BAN_MEMBERS);
  const ban = bansOf(state)[target.userId];
  if (!ban) throw new UnknownEntityError('ban');
  return jsonReply(ban);
}

/** Whether the actor may ban the user: never the owner, and a member only below the actor's top role. */
function mayBan(state: GuildState, actorId: string, userId: string): boolean {
  return userId !== state.ownerId && (!state.members.has(userId) || outranks(state, actorId, userId));
}

/**
 * Bans each user (a member is removed), tells GUILD_BAN_ADD and starts the purge of their recent messages; the
 * bans are written in one guild record.
 */
async function ban(rt: GuildRuntime, added: ReadonlyMap<string, BanEntry>, purgeSeconds: number): Promise<void> {
  const state = rt.state;
  await saveBans(rt, { ...bansOf(state), ...Object.fromEntries(added) });
  for (const [userId, entry] of added) {
    const member = state.members.get(userId);
    if (member) await dropMember(rt, member);
    rt.emit('GUILD_BAN_ADD', { guild_id: state.id, user: entry.user }, (u) => seesBans(state, u));
  }
  if (purgeSeconds > 0) purgeMessages(rt, [...added.keys()], purgeSeconds);
}

/** put_ban (BAN_MEMBERS; a member also needs a lower top role than the actor): removes them, GUILD_BAN_ADD. */
export async function putBan(rt: GuildRuntime, target: BanTarget): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(target.caller);
  requireGuildPermission(state, actorId, Permission.BAN_MEMBERS);
  if (!mayBan(state, actorId, target.userId)) throw new MissingPermissionsError('ROLE_HIERARCHY');
  const body = bodyOf(BanCreateSchema, target.body);
  const user = state.members.get(target.userId)?.user ?? userSnapshot(target.userJson, target.userId);
  await ban(rt, new Map([[target.userId, { user, reason: body.reason ?? null }]]), deleteSeconds(body));
  return emptyReply();
}

/**
 * bulk_ban (BAN_MEMBERS and MANAGE_GUILD): bans every listed user put_ban would, and lists the others (banned
 * already, unknown, the owner, outranking the actor) as failed; 400 500000 when none could be banned.
 */
export async function bulkBan(rt: GuildRuntime, request: BulkBan): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(request.caller);
  requireGuildPermission(state, actorId, Permission.BAN_MEMBERS);
  requireGuildPermission(state, actorId, Permission.MANAGE_GUILD);
  const body = bodyOf(BulkBanSchema, request.body);
  const banned = bansOf(state);
  const added = new Map<string, BanEntry>();
  const failed: string[] = [];
  for (const userId of new Set(body.user_ids)) {
    const userJson = request.userJson[userId];
    if (userJson === undefined || banned[userId] || !mayBan(state, actorId, userId)) {
      failed.push(userId);
      continue;
    }
    const user = state.members.get(userId)?.user ?? userSnapshot(userJson, userId);
    added.set(userId, { user, reason: body.reason ?? null });
  }
  if (added.size === 0) throw new BadRequestError('Failed to ban users', 500_000);
  await ban(rt, added, body.delete_message_seconds ?? 0);
  return jsonReply({ banned_users: [...added.keys()], failed_users: failed });
}

/** delete_ban (BAN_MEMBERS): 404 10026 when the user is not banned; GUILD_BAN_REMOVE. */
export async function deleteBan(rt: GuildRuntime, target: MemberTarget): Promise<GuildReply> {
  const state = rt.state;
  requireGuildPermission(state, callerId(target.caller), Permission.BAN_MEMBERS);
  const { [target.userId]: ban, ...rest } = bansOf(state);
  if (!ban) throw new UnknownEntityError('ban');
  await saveBans(rt, rest);
  rt.emit('GUILD_BAN_REMOVE', { guild_id: state.id, user: ban.user }, (u) => seesBans(state, u));
  return emptyReply();
}

/**
 * Members a prune would remove: roleless (or holding only include_roles), joined more than `days`
 * ago (Chorus keeps no activity record, so joining is the last known activity), and outranked by
 * the actor; never the owner nor the actor.
 */
function pruneCandidates(state: GuildState, actorId: string, request: PruneRequest, nowMs: number): MemberRecord[] {
  const days = request.days || 7;
  if (days < 1 || days > 30) throw ValidationError.field('days', 'NUMBER_TYPE_MAX', 'Must be between 1 and 30.');
  const included = new Set(request.includeRoles);
  const cutoff = nowMs - days * 86_400_000;
  return [...state.members.values()].filter(
    (member) =>
      member.user_id !== actorId &&
      member.user_id !== state.ownerId &&
      member.roles.every((roleId) => included.has(roleId)) &&
      Date.parse(member.joined_at) < cutoff &&
      outranks(state, actorId, member.user_id),
  );
}

/** prune_count (KICK_MEMBERS): `{pruned}` as a dry run. */
export function pruneCount(rt: GuildRuntime, request: PruneRequest): GuildReply {
  const state = rt.state;
  const actorId = callerId(request.caller);
  requireGuildPermission(state, actorId, Permission.KICK_MEMBERS);
  return jsonReply({ pruned: pruneCandidates(state, actorId, request, rt.nowMs()).length });
}

/** prune (KICK_MEMBERS): removes the candidates; `{pruned}` is null unless compute_prune_count. */
export async function prune(rt: GuildRuntime, request: PruneRequest): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(request.caller);
  requireGuildPermission(state, actorId, Permission.KICK_MEMBERS);
  const candidates = pruneCandidates(state, actorId, request, rt.nowMs());
  for (const member of candidates) await dropMember(rt, member);
  return jsonReply({ pruned: request.computePruneCount ? candidates.length : null });
}
