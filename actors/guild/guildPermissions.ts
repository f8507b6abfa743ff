import {
  ALL_PERMISSIONS,
  Permission,
  basePermissions,
  channelPermissions,
  hasAll,
  OverwriteType,
  type PermissionName,
} from '../../src/domain/permissions.js';
import { MissingAccessError, MissingPermissionsError, UnknownEntityError } from '../../src/domain/errors.js';
import type { ChannelRecord, MemberRecord, RoleRecord } from '../runtime/ports/records.js';
import type { GuildState } from './GuildState.js';

/** What a timed-out member keeps in every channel (docs/rest.md §6.2 step 7). */
const TIMED_OUT_MASK = Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY;

/** True while the member's timeout (communication_disabled_until) lies in the future. */
function timedOut(member: MemberRecord, nowMs: number): boolean {
  const until = member.communication_disabled_until;
  return until !== null && Date.parse(until) > nowMs;
}

/** A member's guild-level permissions; 0n for a non-member. */
export function memberPermissions(state: GuildState, userId: string, nowMs = Date.now()): bigint {
  const member = state.members.get(userId);
  if (!member) return 0n;
  const base = basePermissions(state, userId, member.roles);
  return base !== ALL_PERMISSIONS && timedOut(member, nowMs) ? base & TIMED_OUT_MASK : base;
}

/** A member's effective permissions in one channel of the guild; 0n for a non-member or an unknown channel. */
export function permissionsIn(state: GuildState, userId: string, channelId: string, nowMs = Date.now()): bigint {
  const member = state.members.get(userId);
  if (!member || !state.channels.has(channelId)) return 0n;
  const permissions = channelPermissions(state, userId, member.roles, state.overwritesOf(channelId));
  return permissions !== ALL_PERMISSIONS && timedOut(member, nowMs) ? permissions & TIMED_OUT_MASK : permissions;
}

/** True when the user is a member who may see the channel. */
export function canView(state: GuildState, userId: string, channelId: string): boolean {
  return (permissionsIn(state, userId, channelId) & Permission.VIEW_CHANNEL) !== 0n;
}

/**
 * canView for many users of one channel, asked in one synchronous pass (a fan-out): a member without an
 * overwrite of their own, who is not the owner, gets the answer of everyone with the same role list, so a
 * message to a large guild works out permissions once per distinct role list instead of once per member.
 * Only valid while the state does not change: made for one send, never kept.
 */
export function viewerTest(state: GuildState, channelId: string): (userId: string) => boolean {
  if (!state.channels.has(channelId)) return () => false;
  const individual = new Set<string>();
  for (const overwrite of state.overwritesOf(channelId)) {
    if (overwrite.type === OverwriteType.member) individual.add(overwrite.id);
  }
  const byRoles = new Map<string, boolean>();
  return (userId) => {
    const member = state.members.get(userId);
    if (!member) return false;
    if (userId === state.ownerId || individual.has(userId)) return canView(state, userId, channelId);
    const roles = member.roles.length === 0 ? '' : member.roles.join(',');
    let sees = byRoles.get(roles);
    if (sees === undefined) byRoles.set(roles, (sees = canView(state, userId, channelId)));
    return sees;
  };
}

/** Position of the member's highest role: the owner ranks above everything, a non-member below. */
export function highestPosition(state: GuildState, userId: string): number {
  if (userId === state.ownerId) return Number.POSITIVE_INFINITY;
  const member = state.members.get(userId);
  if (!member) return -1;
  let highest = 0;
  for (const roleId of member.roles) highest = Math.max(highest, state.roles.get(roleId)?.position ?? 0);
  return highest;
}

/** True when the actor's highest role is above the target's (nobody outranks the owner, nor themselves). */
export function outranks(state: GuildState, actorId: string, targetId: string): boolean {
  if (targetId === state.ownerId) return false;
  return highestPosition(state, actorId) > highestPosition(state, targetId);
}

/** True when the actor may edit, assign or move the role: it sits below the actor's highest role. */
export function canManageRole(state: GuildState, actorId: string, role: RoleRecord): boolean {
  return role.position < highestPosition(state, actorId);
}

/** The member record; the guild is "unknown" to non-members (404 10004). */
export function requireMember(state: GuildState, userId: string): MemberRecord {
  const member = state.members.get(userId);
  if (!member) throw new UnknownEntityError('guild');
  return member;
}

/** Requires guild-level permission bits; 404 for non-members, 403 50013 naming the first missing bit. */
export function requireGuildPermission(state: GuildState, userId: string, required: bigint): void {
  requireMember(state, userId);
  const held = memberPermissions(state, userId);
  if (!hasAll(held, required)) throw new MissingPermissionsError(missingName(held, required));
}

/** The channel, which must belong to this guild and be visible to the member (403 50001 otherwise). */
export function requireVisibleChannel(state: GuildState, userId: string, channelId: string): ChannelRecord {
  const channel = state.channels.get(channelId);
  if (!channel || !state.members.has(userId)) throw new UnknownEntityError('channel');
  if (!canView(state, userId, channelId)) throw new MissingAccessError();
  return channel;
}

/** Requires permission bits in a channel the member can see. */
export function requireChannelPermission(
  state: GuildState,
  userId: string,
  channelId: string,
  required: bigint,
): ChannelRecord {
  const channel = requireVisibleChannel(state, userId, channelId);
  const held = permissionsIn(state, userId, channelId);
  if (!hasAll(held, required)) throw new MissingPermissionsError(missingName(held, required));
  return channel;
}

/**
 * Requires one of the bits (none when `anyOf` is 0), in the channel when given (which the member must
 * see): the least a route needs when different fields of its body need different permissions.
 */
export function requireAnyPermission(state: GuildState, userId: string, anyOf: bigint, channelId?: string): void {
  requireMember(state, userId);
  const held =
    channelId === undefined
      ? memberPermissions(state, userId)
      : permissionsIn(state, userId, requireVisibleChannel(state, userId, channelId).id);
  if (anyOf !== 0n && (held & anyOf) === 0n) throw new MissingPermissionsError(missingName(held, anyOf));
}

/**
 * Refuses to hand out bits the actor does not hold itself (role permissions, overwrites), unless
 * the actor is the owner or an administrator, whose permissions are already everything.
 */
export function requireGrantable(state: GuildState, actorId: string, bits: bigint, channelId?: string): void {
  const held = channelId === undefined ? memberPermissions(state, actorId) : permissionsIn(state, actorId, channelId);
  if (held === ALL_PERMISSIONS) return;
  const lacking = bits & ~held;
  if (lacking !== 0n) throw new MissingPermissionsError(missingName(held, bits));
}

/** The name of the lowest required bit that is not held (for logs and the error's `missing`). */
export function missingName(held: bigint, required: bigint): string {
  const lacking = required & ~held;
  for (const [name, bit] of Object.entries(Permission) as [PermissionName, bigint][]) {
    if ((lacking & bit) !== 0n) return name;
  }
  return '';
}
