import { randomInt } from 'node:crypto';
import type { ChannelTarget, GuildReply, GuildRequest, InviteTarget } from '../../proto/gen/chorus/v1/guild.js';
import {
  BadRequestError,
  ConflictError,
  MissingPermissionsError,
  UnknownEntityError,
  ValidationError,
} from '../../src/domain/errors.js';
import { isIndexKey } from '../../src/domain/codeIndex.js';
import { Permission, hasAll } from '../../src/domain/permissions.js';
import type { InviteRecord } from '../runtime/ports/records.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { callerId, jsonReply } from './GuildRuntime.js';
import type { GuildState } from './GuildState.js';
import { ChannelType } from './guildChannelModel.js';
import { inviteCreateEventJson, inviteJson } from './guildJson.js';
import { admitMember } from './guildMembership.js';
import { userSnapshot } from './guildLifecycle.js';
import {
  memberPermissions,
  permissionsIn,
  requireChannelPermission,
  requireGuildPermission,
  requireMember,
} from './guildPermissions.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { InviteCreateSchema } from '../../src/contract/index.js';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Invite codes are 8 random base62 characters; a collision is retried this many times. */
const CODE_LENGTH = 8;
const CODE_ATTEMPTS = 5;
/** Discord's bounds: max_age up to 7 days (0 = never), max_uses up to 100 (0 = unlimited). */
const MAX_AGE_S = 604_800;
const MAX_USES = 100;

function newCode(): string {
  let code = '';
  for (let i = 0; i < CODE_LENGTH; i += 1) code += BASE62.charAt(randomInt(BASE62.length));
  return code;
}

/** True once an invite's max_age has passed or its uses are spent. */
export function inviteSpent(invite: InviteRecord, nowMs: number): boolean {
  const expired = invite.max_age > 0 && Date.parse(invite.created_at) + invite.max_age * 1000 <= nowMs;
  return expired || (invite.max_uses > 0 && invite.uses >= invite.max_uses);
}

/** The guild's vanity code is stored as an invite too, so codes stay unique across guilds. */
function isVanity(state: GuildState, invite: InviteRecord): boolean {
  return invite.inviter_id === null && invite.code === state.guild.fields['vanity_url_code'];
}

/** A usable invite of this guild; 404 10006 otherwise (a spent one is deleted on the way). */
async function liveInvite(rt: GuildRuntime, code: string): Promise<InviteRecord> {
  const invite = await rt.stores.guilds.getInvite(code);
  if (!invite || invite.guild_id !== rt.state.id) throw new UnknownEntityError('invite');
  if (inviteSpent(invite, rt.nowMs())) {
    await removeInvite(rt, invite);
    throw new UnknownEntityError('invite');
  }
  return invite;
}

/** Deletes an invite and tells INVITE_DELETE to those who manage its channel. */
async function removeInvite(rt: GuildRuntime, invite: InviteRecord): Promise<void> {
  const state = rt.state;
  await rt.stores.guilds.deleteInvite(invite.code);
  const data = { channel_id: invite.channel_id, guild_id: state.id, code: invite.code };
  rt.emit('INVITE_DELETE', data, (userId) => managesChannel(state, userId, invite.channel_id));
}

function managesChannel(state: GuildState, userId: string, channelId: string): boolean {
  return hasAll(permissionsIn(state, userId, channelId), Permission.MANAGE_CHANNELS);
}

/** Deletes every invite to a channel that is being deleted. */
export async function deleteChannelInvites(rt: GuildRuntime, channelId: string): Promise<void> {
  const invites = await rt.stores.guilds.listInvites(rt.state.id);
  for (const invite of invites) if (invite.channel_id === channelId) await removeInvite(rt, invite);
}

/** create_invite (CREATE_INSTANT_INVITE in the channel): INVITE_CREATE to those who manage the channel. */
export async function createInvite(rt: GuildRuntime, target: ChannelTarget): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(target.caller);
  const channel = requireChannelPermission(state, actorId, target.channelId, Permission.CREATE_INSTANT_INVITE);
  if (channel.type === ChannelType.category)
    throw new BadRequestError('Cannot execute action on this channel type', 50_024);
  const body = bodyOf(InviteCreateSchema, target.body);
  const maxAge = body.max_age ?? 86_400;
  const maxUses = body.max_uses ?? 0;
  if (maxAge < 0 || maxAge > MAX_AGE_S)
    throw ValidationError.field('max_age', 'NUMBER_TYPE_MAX', `Must be between 0 and ${MAX_AGE_S}.`);
  if (maxUses < 0 || maxUses > MAX_USES)
    throw ValidationError.field('max_uses', 'NUMBER_TYPE_MAX', `Must be between 0 and ${MAX_USES}.`);
  for (let attempt = 1; ; attempt += 1) {
    const invite: InviteRecord = {
      code: newCode(),
      guild_id: state.id,
      channel_id: channel.id,
      inviter_id: actorId,
      max_age: maxAge,
      max_uses: maxUses,
      uses: 0,
      temporary: body.temporary ?? false,
      created_at: rt.nowIso(),
    };
    try {
      await rt.stores.guilds.saveInvite(invite);
    } catch (error) {
      if (error instanceof ConflictError && attempt < CODE_ATTEMPTS) continue;
      throw error;
    }
    rt.emit('INVITE_CREATE', inviteCreateEventJson(state, invite), (userId) =>
      managesChannel(state, userId, channel.id),
    );
    return jsonReply(inviteJson(state, invite));
  }
}

async function liveInvitesOf(rt: GuildRuntime, channelId?: string): Promise<InviteRecord[]> {
  const state = rt.state;
  const now = rt.nowMs();
  const invites = await rt.stores.guilds.listInvites(state.id);
  return invites.filter(
    (invite) =>
      !isVanity(state, invite) &&
      !isIndexKey(invite.code) &&
      !inviteSpent(invite, now) &&
      (!channelId || invite.channel_id === channelId),
  );
}

/** list_channel_invites (MANAGE_CHANNELS in the channel). */
export async function listChannelInvites(rt: GuildRuntime, target: ChannelTarget): Promise<GuildReply> {
  const state = rt.state;
  requireChannelPermission(state, callerId(target.caller), target.channelId, Permission.MANAGE_CHANNELS);
  const invites = await liveInvitesOf(rt, target.channelId);
  return jsonReply(invites.map((invite) => inviteJson(state, invite)));
}

/** list_invites (MANAGE_GUILD): every live invite of the guild. */
export async function listInvites(rt: GuildRuntime, request: GuildRequest): Promise<GuildReply> {
  const state = rt.state;
  requireGuildPermission(state, callerId(request.caller), Permission.MANAGE_GUILD);
  const invites = await liveInvitesOf(rt);
  return jsonReply(invites.map((invite) => inviteJson(state, invite)));
}

/** get_invite: anyone signed in may look an invite up; with_counts adds member counts. */
export async function getInvite(rt: GuildRuntime, target: InviteTarget): Promise<GuildReply> {
  callerId(target.caller);
  const invite = await liveInvite(rt, target.code);
  return jsonReply(inviteJson(rt.state, invite, target.withCounts));
}

/** accept_invite: joins the guild (banned users 403 40007); a member gets the invite back unchanged. */
export async function acceptInvite(rt: GuildRuntime, target: InviteTarget): Promise<GuildReply> {
  const state = rt.state;
  const userId = callerId(target.caller);
  const invite = await liveInvite(rt, target.code);
  if (state.members.has(userId)) return jsonReply({ ...inviteJson(state, invite), new_member: false });
  await admitMember(rt, userId, userSnapshot(target.userJson, userId));
  const used: InviteRecord = { ...invite, uses: invite.uses + 1 };
  if (!isVanity(state, invite) && used.max_uses > 0 && used.uses >= used.max_uses) await removeInvite(rt, used);
  else await rt.stores.guilds.saveInvite(used);
  return jsonReply({ ...inviteJson(state, used), new_member: true });
}

/** delete_invite: the inviter, or MANAGE_CHANNELS in its channel, or MANAGE_GUILD; replies the deleted invite. */
export async function deleteInvite(rt: GuildRuntime, target: InviteTarget): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(target.caller);
  requireMember(state, actorId);
  const invite = await rt.stores.guilds.getInvite(target.code);
  if (!invite || invite.guild_id !== state.id || isVanity(state, invite)) throw new UnknownEntityError('invite');
  const allowed =
    invite.inviter_id === actorId ||
    hasAll(memberPermissions(state, actorId), Permission.MANAGE_GUILD) ||
    managesChannel(state, actorId, invite.channel_id);
  if (!allowed) throw new MissingPermissionsError('MANAGE_CHANNELS');
  await removeInvite(rt, invite);
  return jsonReply(inviteJson(state, invite));
}
