import type { AddMember, AuthorizeBot, GuildReply, MemberTarget } from '../../proto/gen/chorus/v1/guild.js';
import { BadRequestError, ForbiddenError, MissingPermissionsError, ValidationError } from '../../src/domain/errors.js';
import { Permission, parsePermissions } from '../../src/domain/permissions.js';
import type { MemberRecord, RoleRecord } from '../runtime/ports/records.js';
import { dispatchEvent } from './GuildFanout.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { callerId, emptyReply, jsonReply } from './GuildRuntime.js';
import type { GuildState } from './GuildState.js';
import { newMember, userSnapshot } from './guildLifecycle.js';
import { memberEventJson, memberJson } from './guildJson.js';
import { requireGrantable, requireGuildPermission, requireMember, outranks } from './guildPermissions.js';
import { requireTarget } from './guildMembers.js';
import { insertRoleAtBottom } from './guildRoles.js';
import { leaveVoiceOfUser } from './guildVoice.js';

/** A stored ban: the banned user's snapshot and the reason. */
export interface BanEntry {
  readonly user: Record<string, unknown>;
  readonly reason: string | null;
}

/** The guild's bans (kept in GuildRecord.fields.bans, keyed by user id). */
export function bansOf(state: GuildState): Record<string, BanEntry> {
  return (state.guild.fields['bans'] as Record<string, BanEntry> | undefined) ?? {};
}

/** Banned users cannot join (403 40007). */
function refuseBanned(state: GuildState, userId: string): void {
  if (bansOf(state)[userId]) throw new ForbiddenError('You are banned from this guild.', 40_007);
}

/**
 * Adds a member: GUILD_MEMBER_ADD to subscribers, then tells the User actor so the user's sessions
 * subscribe and get GUILD_CREATE. An existing member is returned unchanged.
 */
export async function admitMember(
  rt: GuildRuntime,
  userId: string,
  user: Record<string, unknown>,
): Promise<MemberRecord> {
  const state = rt.state;
  const existing = state.members.get(userId);
  if (existing) return existing;
  refuseBanned(state, userId);
  const member = newMember(state.id, userId, user, rt.nowIso());
  await rt.stores.guilds.saveMember(member);
  state.members.set(userId, member);
  rt.emit('GUILD_MEMBER_ADD', memberEventJson(state.id, member));
  rt.tellUser(userId, true);
  rt.memberChanged(userId); // a channel may hold their snapshot as a non-member
  return member;
}

/**
 * Removes a member: GUILD_DELETE to that user's sessions (which are unsubscribed), GUILD_MEMBER_REMOVE
 * to everyone else subscribed, and a tell to the User actor.
 */
export async function dropMember(rt: GuildRuntime, member: MemberRecord): Promise<void> {
  const state = rt.state;
  leaveVoiceOfUser(rt, member.user_id);
  await rt.stores.guilds.deleteMember(state.id, member.user_id);
  state.members.delete(member.user_id);
  rt.fanout.sendTo(rt.fanout.sessionsOf(member.user_id), dispatchEvent('GUILD_DELETE', { id: state.id }));
  await rt.subscriptions.unsubscribeUser(member.user_id);
  rt.emit('GUILD_MEMBER_REMOVE', { guild_id: state.id, user: member.user });
  rt.tellUser(member.user_id, false);
  rt.memberChanged(member.user_id);
}

/** add_member (from invites and OAuth): the member object. */
export async function addMember(rt: GuildRuntime, command: AddMember): Promise<GuildReply> {
  const member = await admitMember(rt, command.userId, userSnapshot(command.userJson, command.userId));
  return jsonReply(memberJson(member));
}

/** remove_member: a member leaving (the owner cannot), or a kick (KICK_MEMBERS and a higher top role). */
export async function removeMember(rt: GuildRuntime, target: MemberTarget): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(target.caller);
  requireMember(state, actorId);
  const member = requireTarget(state, target.userId);
  if (actorId === member.user_id) {
    if (actorId === state.ownerId)
      throw new BadRequestError('The owner cannot leave the guild; delete it or transfer it', 50_055);
  } else {
    requireGuildPermission(state, actorId, Permission.KICK_MEMBERS);
    if (!outranks(state, actorId, member.user_id)) throw new MissingPermissionsError('ROLE_HIERARCHY');
  }
  await dropMember(rt, member);
  return emptyReply();
}

/**
 * authorize_bot (MANAGE_GUILD): adds the bot as a member; with permissions, also a managed role named
 * after the bot holding them (only permissions the caller holds).
 */
export async function authorizeBot(rt: GuildRuntime, command: AuthorizeBot): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(command.caller);
  requireGuildPermission(state, actorId, Permission.MANAGE_GUILD);
  let botId = '';
  try {
    const parsed: unknown = JSON.parse(command.botUserJson);
    if (parsed && typeof parsed === 'object' && typeof (parsed as { id?: unknown }).id === 'string') {
      botId = (parsed as { id: string }).id;
    }
  } catch {
    // a malformed snapshot is refused below
  }
  if (!botId) throw ValidationError.field('bot', 'BOT_INVALID', 'Unknown bot user.');
  const user = userSnapshot(command.botUserJson, botId);
  const permissions = parsePermissions(command.permissions);
  requireGrantable(state, actorId, permissions);
  if (state.members.has(botId)) return jsonReply(memberJson(state.members.get(botId) as MemberRecord));
  let member = await admitMember(rt, botId, user);
  if (permissions !== 0n) {
    const role: RoleRecord = {
      id: rt.ctx.ids.next(),
      guild_id: state.id,
      name: typeof user['username'] === 'string' ? user['username'] : 'bot',
      permissions: permissions.toString(),
      color: 0,
      hoist: false,
      mentionable: false,
      managed: true,
      position: 1,
      icon: null,
      unicode_emoji: null,
      flags: 0,
    };
    await insertRoleAtBottom(rt, role);
    member = { ...member, roles: [role.id] };
    await rt.stores.guilds.saveMember(member);
    state.members.set(botId, member);
    rt.emit('GUILD_MEMBER_UPDATE', memberEventJson(state.id, member), undefined, botId);
    rt.memberChanged(botId);
  }
  return jsonReply(memberJson(member));
}
