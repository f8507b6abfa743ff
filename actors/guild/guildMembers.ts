import type {
  GuildReply,
  ListMembers,
  MemberRoleTarget,
  MemberTarget,
  RoleMembers,
} from '../../proto/gen/chorus/v1/guild.js';
import { MissingPermissionsError, UnknownEntityError, ValidationError } from '../../src/domain/errors.js';
import { ALL_PERMISSIONS, Permission, hasAll } from '../../src/domain/permissions.js';
import { compareSnowflakes } from '../../src/domain/snowflake.js';
import type { MemberRecord, RoleRecord } from '../runtime/ports/records.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { callerId, emptyReply, jsonReply } from './GuildRuntime.js';
import type { GuildState } from './GuildState.js';
import { memberEventJson, memberJson, type JsonObject } from './guildJson.js';
import {
  canManageRole,
  memberPermissions,
  outranks,
  requireGuildPermission,
  requireMember,
} from './guildPermissions.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { MemberChangeSchema, RoleMembersSchema } from '../../src/contract/index.js';
import { moveMember, requireMoveTarget, requireVoiceState, voiceMemberChanged } from './guildVoice.js';

/** Longest timeout Discord allows (28 days). */
const MAX_TIMEOUT_MS = 28 * 24 * 60 * 60 * 1000;

/** The target member (404 10007). */
export function requireTarget(state: GuildState, userId: string): MemberRecord {
  const member = state.members.get(userId);
  if (!member) throw new UnknownEntityError('member');
  return member;
}

/** Acting on another member also needs a higher top role than theirs (the owner outranks all). */
function requireOutranks(state: GuildState, actorId: string, targetId: string): void {
  if (!outranks(state, actorId, targetId)) throw new MissingPermissionsError('ROLE_HIERARCHY');
}

/** A role the actor may assign or remove: exists, not @everyone, not managed, below the actor's top role. */
function assignableRole(state: GuildState, actorId: string, roleId: string): RoleRecord {
  const role = state.roles.get(roleId);
  if (!role || role.id === state.id) throw new UnknownEntityError('role');
  if (role.managed || !canManageRole(state, actorId, role)) throw new MissingPermissionsError('ROLE_HIERARCHY');
  return role;
}

/**
 * Stores a changed member and tells GUILD_MEMBER_UPDATE (to the member's own sessions regardless of
 * intents). Channels drop the member's cached snapshot: it carries the member object (nick, avatar,
 * roles, timeout), not only permissions.
 */
export async function saveMember(rt: GuildRuntime, member: MemberRecord): Promise<void> {
  const state = rt.state;
  await rt.stores.guilds.saveMember(member);
  state.members.set(member.user_id, member);
  rt.emit('GUILD_MEMBER_UPDATE', memberEventJson(state.id, member), undefined, member.user_id);
  rt.memberChanged(member.user_id);
}

/** list_members (members only): ordered by user id after `after`; with `query`, a username/nick prefix search. */
export function listMembers(rt: GuildRuntime, command: ListMembers): GuildReply {
  const state = rt.state;
  requireMember(state, callerId(command.caller));
  const limit = Math.min(Math.max(command.limit || 1, 1), 1000);
  const query = command.query.toLowerCase();
  const out: unknown[] = [];
  for (const member of state.sortedMembers()) {
    if (out.length >= limit) break;
    if (command.after && compareSnowflakes(member.user_id, command.after) <= 0) continue;
    if (query && !matches(member, query)) continue;
    out.push(memberJson(member));
  }
  return jsonReply(out);
}

function matches(member: MemberRecord, query: string): boolean {
  const names = [member.nick, member.user['username'], member.user['global_name']];
  return names.some((name) => typeof name === 'string' && name.toLowerCase().startsWith(query));
}

/** get_member (members only): 404 10007 for someone who is not a member. */
export function getMember(rt: GuildRuntime, target: MemberTarget): GuildReply {
  const state = rt.state;
  requireMember(state, callerId(target.caller));
  return jsonReply(memberJson(requireTarget(state, target.userId)));
}

/**
 * update_member: nick (own: CHANGE_NICKNAME; others: MANAGE_NICKNAMES and hierarchy), roles
 * (MANAGE_ROLES; only roles below the actor's top role), avatar and bio (own only), timeouts
 * (MODERATE_MEMBERS and hierarchy), mute and deaf (MUTE_MEMBERS / DEAFEN_MEMBERS), channel_id (MOVE_MEMBERS:
 * moves a connected member to a voice channel, null disconnects; 400 40032 when not connected).
 */
export async function updateMember(rt: GuildRuntime, target: MemberTarget): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(target.caller);
  requireMember(state, actorId);
  const current = requireTarget(state, target.userId);
  const self = actorId === current.user_id;
  const body = bodyOf(MemberChangeSchema, target.body);
  const next: MemberRecord = { ...current, roles: [...current.roles] };
  if (body.nick !== undefined) {
    if (self && hasAll(memberPermissions(state, actorId), Permission.CHANGE_NICKNAME)) {
      // own nickname: CHANGE_NICKNAME is enough
    } else {
      requireGuildPermission(state, actorId, Permission.MANAGE_NICKNAMES);
      if (!self) requireOutranks(state, actorId, current.user_id);
    }
    const nick = body.nick === null ? '' : body.nick.trim();
    if (nick.length > 32) throw ValidationError.field('nick', 'BASE_TYPE_MAX_LENGTH', 'Must be 32 or fewer in length.');
    next.nick = nick === '' ? null : nick;
  }
  if (body.roles !== undefined) {
    requireGuildPermission(state, actorId, Permission.MANAGE_ROLES);
    const wanted = new Set(body.roles.filter((id) => id !== state.id));
    const before = new Set(current.roles);
    for (const id of wanted) if (!before.has(id)) assignableRole(state, actorId, id);
    for (const id of before) if (!wanted.has(id) && state.roles.has(id)) assignableRole(state, actorId, id);
    next.roles = [...wanted];
  }
  if (self && body.avatar !== undefined) next.avatar = body.avatar;
  if (self && body.bio !== undefined) next.bio = body.bio;
  if (body.communication_disabled_until !== undefined) {
    requireGuildPermission(state, actorId, Permission.MODERATE_MEMBERS);
    requireOutranks(state, actorId, current.user_id);
    if (memberPermissions(state, current.user_id) === ALL_PERMISSIONS)
      throw new MissingPermissionsError('ADMINISTRATOR');
    next.communication_disabled_until = timeoutUntil(body.communication_disabled_until, rt.nowMs());
  }
  if (body.mute !== undefined) {
    requireGuildPermission(state, actorId, Permission.MUTE_MEMBERS);
    next.mute = body.mute;
  }
  if (body.deaf !== undefined) {
    requireGuildPermission(state, actorId, Permission.DEAFEN_MEMBERS);
    next.deaf = body.deaf;
  }
  const moveTo = body.channel_id;
  if (moveTo !== undefined) {
    requireGuildPermission(state, actorId, Permission.MOVE_MEMBERS);
    requireVoiceState(state, current.user_id);
    if (moveTo !== null) requireMoveTarget(rt, actorId, moveTo);
  }
  await saveMember(rt, next);
  const told = moveTo !== undefined && moveMember(rt, actorId, next.user_id, moveTo);
  if (!told && (body.mute !== undefined || body.deaf !== undefined)) voiceMemberChanged(rt, next.user_id);
  return jsonReply(memberJson(next));
}

/** A timeout end: null lifts it; otherwise an ISO date at most 28 days ahead (50035 otherwise). */
function timeoutUntil(value: unknown, nowMs: number): string | null {
  if (value === null) return null;
  const at = typeof value === 'string' ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(at) || at - nowMs > MAX_TIMEOUT_MS) {
    throw ValidationError.field(
      'communication_disabled_until',
      'DATE_INVALID',
      'Must be a date no more than 28 days in the future.',
    );
  }
  return new Date(at).toISOString();
}

/** add_member_role (MANAGE_ROLES, hierarchy): idempotent. */
export async function addMemberRole(rt: GuildRuntime, target: MemberRoleTarget): Promise<GuildReply> {
  return changeMemberRole(rt, target, true);
}

/** remove_member_role (MANAGE_ROLES, hierarchy): idempotent. */
export async function removeMemberRole(rt: GuildRuntime, target: MemberRoleTarget): Promise<GuildReply> {
  return changeMemberRole(rt, target, false);
}

/**
 * add_role_members (MANAGE_ROLES, a role below the actor's top one): gives the role to each listed member (ids of
 * non-members are passed over) and answers those members by id, as Discord's client route does.
 */
export async function addRoleMembers(rt: GuildRuntime, request: RoleMembers): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(request.caller);
  requireGuildPermission(state, actorId, Permission.MANAGE_ROLES);
  assignableRole(state, actorId, request.roleId);
  const body = bodyOf(RoleMembersSchema, request.body);
  const members: Record<string, JsonObject> = {};
  for (const userId of new Set(body.member_ids)) {
    const member = state.members.get(userId);
    if (!member) continue;
    const updated = member.roles.includes(request.roleId)
      ? member
      : { ...member, roles: [...member.roles, request.roleId] };
    if (updated !== member) await saveMember(rt, updated);
    members[userId] = memberJson(updated);
  }
  return jsonReply(members);
}

async function changeMemberRole(rt: GuildRuntime, target: MemberRoleTarget, add: boolean): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(target.caller);
  requireGuildPermission(state, actorId, Permission.MANAGE_ROLES);
  const member = requireTarget(state, target.userId);
  assignableRole(state, actorId, target.roleId);
  const has = member.roles.includes(target.roleId);
  if (has === add) return emptyReply();
  const roles = add ? [...member.roles, target.roleId] : member.roles.filter((id) => id !== target.roleId);
  await saveMember(rt, { ...member, roles });
  return emptyReply();
}
