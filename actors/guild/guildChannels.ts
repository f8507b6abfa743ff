import type {
  ChannelTarget,
  GuildBodyRequest,
  GuildReply,
  GuildRequest,
  OverwriteTarget,
} from '../../proto/gen/chorus/v1/guild.js';
import { BadRequestError, UnknownEntityError, ValidationError } from '../../src/domain/errors.js';
import { Permission, parsePermissions } from '../../src/domain/permissions.js';
import type { ChannelRecord } from '../runtime/ports/records.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { callerId, emptyReply, jsonReply } from './GuildRuntime.js';
import { checkParent, modifiedChannel, newChannelRecord, nextPosition } from './guildChannelModel.js';
import { channelJson, guildJson } from './guildJson.js';
import { deleteChannelInvites } from './guildInvites.js';
import { leaveVoiceOfChannel } from './guildVoice.js';
import {
  canView,
  requireChannelPermission,
  requireGrantable,
  requireGuildPermission,
  requireMember,
  requireVisibleChannel,
} from './guildPermissions.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import {
  ChannelCreateSchema,
  ChannelModifySchema,
  ChannelPermissionOverwriteSchema,
  ChannelReorderSchema,
} from '../../src/contract/index.js';

/** Discord's cap on channels per guild (30013 beyond it). */
const MAX_CHANNELS = 500;

/** Overwrite bits a caller hands out must be bits it holds (owner and administrators excepted). */
function requireGrantableOverwrites(
  rt: GuildRuntime,
  actorId: string,
  overwrites: readonly { allow?: string; deny?: string }[],
  channelId?: string,
): void {
  let bits = 0n;
  for (const o of overwrites) bits |= parsePermissions(o.allow) | parsePermissions(o.deny);
  requireGrantable(rt.state, actorId, bits, channelId);
}

/** list_channels: the channels the caller can view, in position order. */
export function listChannels(rt: GuildRuntime, request: GuildRequest): GuildReply {
  const state = rt.state;
  const userId = callerId(request.caller);
  requireMember(state, userId);
  const visible = state.sortedChannels().filter((channel) => canView(state, userId, channel.id));
  return jsonReply(visible.map((channel) => channelJson(channel)));
}

/** get_channel (target_id = channel): the channel if the caller can view it. */
export function getChannel(rt: GuildRuntime, request: GuildRequest): GuildReply {
  const channel = requireVisibleChannel(rt.state, callerId(request.caller), request.targetId);
  return jsonReply(channelJson(channel));
}

/** create_channel (MANAGE_CHANNELS; overwrites also need MANAGE_ROLES): CHANNEL_CREATE to those who can see it. */
export async function createChannel(rt: GuildRuntime, request: GuildBodyRequest): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(request.caller);
  requireGuildPermission(state, actorId, Permission.MANAGE_CHANNELS);
  const body = bodyOf(ChannelCreateSchema, request.body);
  if (body.permission_overwrites?.length) {
    requireGuildPermission(state, actorId, Permission.MANAGE_ROLES);
    requireGrantableOverwrites(rt, actorId, body.permission_overwrites);
  }
  if (state.channels.size >= MAX_CHANNELS)
    throw new BadRequestError('Maximum number of guild channels reached (500)', 30_013);
  const type = body.type ?? 0;
  const channel = newChannelRecord(
    rt.ctx.ids.next(),
    state.id,
    body,
    nextPosition(state.channels.values(), type),
    rt.nowIso(),
  );
  checkParent(state, channel.parent_id, channel.type);
  await rt.stores.channels.save(channel);
  state.putChannel(channel);
  rt.emitInChannel('CHANNEL_CREATE', channelJson(channel), channel.id);
  return jsonReply(channelJson(channel));
}

/** reorder_channels (MANAGE_CHANNELS): positions, parents and lock_permissions (sync with the parent). */
export async function reorderChannels(rt: GuildRuntime, request: GuildBodyRequest): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(request.caller);
  requireGuildPermission(state, actorId, Permission.MANAGE_CHANNELS);
  const items = bodyOf(ChannelReorderSchema, request.body);
  const changed: { channel: ChannelRecord; viewers: Set<string> }[] = [];
  items.forEach((item, index) => {
    const current = state.channels.get(item.id);
    if (!current) throw ValidationError.field(`${index}.id`, 'CHANNEL_INVALID', 'Unknown channel in this guild.');
    const next: ChannelRecord = { ...current, fields: { ...current.fields } };
    if (item.position !== undefined) next.position = item.position;
    if (item.parent_id !== undefined) {
      checkParent(state, item.parent_id, next.type, `${index}.parent_id`);
      next.parent_id = item.parent_id;
    }
    const parent = next.parent_id === null ? undefined : state.channels.get(next.parent_id);
    if (item.lock_permissions && parent)
      next.permission_overwrites = parent.permission_overwrites.map((o) => ({ ...o }));
    changed.push({ channel: next, viewers: rt.viewersOf(next.id) });
  });
  const resynced = new Set<string>();
  for (const { channel } of changed) {
    if (channel.permission_overwrites !== state.channels.get(channel.id)?.permission_overwrites)
      resynced.add(channel.id);
    await rt.saveChannel(channel);
  }
  for (const { channel, viewers } of changed) {
    rt.emitChannelChange(channel, viewers);
    rt.tellChannelChanged(channel.id, channel);
  }
  for (const channelId of resynced) rt.channelPermissionsChanged(channelId);
  return emptyReply();
}

/** update_channel (MANAGE_CHANNELS in it; overwrites also MANAGE_ROLES): the modified channel. */
export async function updateChannel(rt: GuildRuntime, target: ChannelTarget): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(target.caller);
  const current = requireChannelPermission(state, actorId, target.channelId, Permission.MANAGE_CHANNELS);
  const body = bodyOf(ChannelModifySchema, target.body);
  if (body.permission_overwrites !== undefined) {
    requireChannelPermission(state, actorId, target.channelId, Permission.MANAGE_ROLES);
    requireGrantableOverwrites(rt, actorId, body.permission_overwrites, target.channelId);
  }
  const next = modifiedChannel(state, current, body);
  const viewers = rt.viewersOf(current.id);
  await rt.saveChannel(next);
  rt.emitChannelChange(next, viewers);
  rt.tellChannelChanged(next.id, next);
  if (body.permission_overwrites !== undefined) rt.channelPermissionsChanged(next.id);
  return jsonReply(channelJson(next));
}

/** delete_channel (MANAGE_CHANNELS in it): children leave the category; invites to it are deleted. */
export async function deleteChannel(rt: GuildRuntime, target: ChannelTarget): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(target.caller);
  const channel = requireChannelPermission(state, actorId, target.channelId, Permission.MANAGE_CHANNELS);
  const viewers = rt.viewersOf(channel.id);
  await rt.stores.channels.delete(channel.id);
  leaveVoiceOfChannel(rt, channel.id);
  state.dropChannel(channel.id);
  rt.emit('CHANNEL_DELETE', channelJson(channel), (userId) => viewers.has(userId));
  rt.tellChannelChanged(channel.id, undefined);
  for (const child of [...state.channels.values()].filter((c) => c.parent_id === channel.id)) {
    const childViewers = rt.viewersOf(child.id);
    const next = { ...child, parent_id: null };
    await rt.saveChannel(next);
    rt.emitChannelChange(next, childViewers);
    rt.tellChannelChanged(next.id, next);
  }
  await deleteChannelInvites(rt, channel.id);
  const fields = state.guild.fields;
  const pointing = Object.keys(fields).filter((key) => key.endsWith('_channel_id') && fields[key] === channel.id);
  if (pointing.length > 0) {
    const guild = { ...state.guild, fields: { ...fields } };
    for (const key of pointing) guild.fields[key] = null;
    await rt.stores.guilds.saveGuild(guild);
    state.guild = guild;
    rt.emit('GUILD_UPDATE', guildJson(state));
  }
  return jsonReply(channelJson(channel));
}

/** put_overwrite (MANAGE_ROLES in the channel): creates or replaces one role or member overwrite. */
export async function putOverwrite(rt: GuildRuntime, target: OverwriteTarget): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(target.caller);
  const current = requireChannelPermission(state, actorId, target.channelId, Permission.MANAGE_ROLES);
  const body = bodyOf(ChannelPermissionOverwriteSchema, target.body);
  const type = body.type;
  if (type !== 0 && type !== 1)
    throw ValidationError.field('type', 'BASE_TYPE_CHOICES', 'Value must be one of (0, 1).');
  if (type === 0 && !state.roles.has(target.overwriteId)) throw new UnknownEntityError('role');
  if (type === 1 && !state.members.has(target.overwriteId)) throw new UnknownEntityError('member');
  requireGrantableOverwrites(rt, actorId, [body], target.channelId);
  const overwrite = {
    id: target.overwriteId,
    type,
    allow: parsePermissions(body.allow).toString(),
    deny: parsePermissions(body.deny).toString(),
  };
  const next: ChannelRecord = {
    ...current,
    permission_overwrites: [...current.permission_overwrites.filter((o) => o.id !== overwrite.id), overwrite],
  };
  return saveOverwrites(rt, current, next);
}

/** delete_overwrite (MANAGE_ROLES in the channel): 404 10009 when the overwrite does not exist. */
export async function deleteOverwrite(rt: GuildRuntime, target: OverwriteTarget): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(target.caller);
  const current = requireChannelPermission(state, actorId, target.channelId, Permission.MANAGE_ROLES);
  if (!current.permission_overwrites.some((o) => o.id === target.overwriteId))
    throw new UnknownEntityError('overwrite');
  const next: ChannelRecord = {
    ...current,
    permission_overwrites: current.permission_overwrites.filter((o) => o.id !== target.overwriteId),
  };
  return saveOverwrites(rt, current, next);
}

async function saveOverwrites(rt: GuildRuntime, current: ChannelRecord, next: ChannelRecord): Promise<GuildReply> {
  const viewers = rt.viewersOf(current.id);
  await rt.saveChannel(next);
  rt.emitChannelChange(next, viewers);
  rt.tellChannelChanged(next.id, next);
  rt.channelPermissionsChanged(next.id);
  return emptyReply();
}
