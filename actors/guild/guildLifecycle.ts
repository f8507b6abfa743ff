import type { CreateGuild, GuildBodyRequest, GuildReply, GuildRequest } from '../../proto/gen/chorus/v1/guild.js';
import { ConflictError, MissingPermissionsError, ValidationError } from '../../src/domain/errors.js';
import { DEFAULT_EVERYONE_PERMISSIONS, Permission } from '../../src/domain/permissions.js';
import type { GuildCreateBody } from '../../src/contract/guild.js';
import type { ChannelRecord, GuildRecord, MemberRecord, RoleRecord } from '../runtime/ports/records.js';
import { replacedImageKeys, type HashedImageFolder } from '../../src/domain/blobKeys.js';
import { imageHash } from '../../src/domain/imageHash.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { callerId, emptyReply, jsonReply } from './GuildRuntime.js';
import { GuildState } from './GuildState.js';
import { ChannelType, newChannelRecord } from './guildChannelModel.js';
import { PRIVATE_GUILD_FIELDS, defaultGuildFields, guildJson } from './guildJson.js';
import { requireGuildPermission, requireMember } from './guildPermissions.js';
import { leaveVoiceOfChannel } from './guildVoice.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { GuildCreateSchema, GuildUpdateSchema } from '../../src/contract/index.js';

/** A public user snapshot from JSON the edge attached; `{id}` alone when it is missing or malformed. */
export function userSnapshot(json: string, userId: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(json);
    if (parsed && typeof parsed === 'object' && (parsed as { id?: unknown }).id === userId) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // fall through to the minimal snapshot
  }
  return { id: userId, username: 'unknown', discriminator: '0', global_name: null, avatar: null };
}

/** A fresh member record. */
export function newMember(
  guildId: string,
  userId: string,
  user: Record<string, unknown>,
  joinedAt: string,
): MemberRecord {
  return {
    guild_id: guildId,
    user_id: userId,
    nick: null,
    avatar: null,
    roles: [],
    joined_at: joinedAt,
    deaf: false,
    mute: false,
    pending: false,
    communication_disabled_until: null,
    flags: 0,
    bio: '',
    user,
  };
}

/**
 * The channels a new guild starts with: the body's `channels` (their `id`s are placeholders that
 * `parent_id` and `system_channel_id` may refer to), or Discord's default text and voice categories.
 */
function initialChannels(rt: GuildRuntime, guildId: string, body: GuildCreateBody, now: string) {
  const placeholders = new Map<string, string>();
  const channels: ChannelRecord[] = [];
  const template = body.channels ?? [];
  if (template.length === 0) {
    const [textCategory, general, voiceCategory, voice] = [
      rt.ctx.ids.next(),
      rt.ctx.ids.next(),
      rt.ctx.ids.next(),
      rt.ctx.ids.next(),
    ];
    channels.push(
      newChannelRecord(textCategory, guildId, { name: 'Text Channels', type: ChannelType.category }, 0, now),
      newChannelRecord(general, guildId, { name: 'general', type: ChannelType.text, parent_id: textCategory }, 0, now),
      newChannelRecord(voiceCategory, guildId, { name: 'Voice Channels', type: ChannelType.category }, 1, now),
      newChannelRecord(voice, guildId, { name: 'General', type: ChannelType.voice, parent_id: voiceCategory }, 0, now),
    );
    return { channels, systemChannelId: general };
  }
  template.forEach((item, index) => {
    const id = rt.ctx.ids.next();
    if (item.id !== undefined) placeholders.set(item.id, id);
    channels.push(newChannelRecord(id, guildId, { ...item, parent_id: null }, index, now, `channels.${index}.`));
  });
  template.forEach((item, index) => {
    const channel = channels[index] as ChannelRecord;
    const parentId = item.parent_id ? placeholders.get(item.parent_id) : undefined;
    const parent = channels.find((c) => c.id === parentId);
    if (parent?.type === ChannelType.category && channel.type !== ChannelType.category) channel.parent_id = parent.id;
    // Template overwrites name @everyone by the placeholder "0", as Discord's guild templates do.
    for (const overwrite of channel.permission_overwrites) if (overwrite.id === '0') overwrite.id = guildId;
  });
  const system = body.system_channel_id === undefined ? undefined : placeholders.get(body.system_channel_id);
  const firstText = channels.find((c) => c.type === ChannelType.text)?.id;
  return { channels, systemChannelId: system ?? firstText ?? null };
}

/** create_guild: the @everyone role, the owner, the starting channels; then tells the owner's User actor. */
export async function createGuild(rt: GuildRuntime, guildId: string, command: CreateGuild): Promise<GuildReply> {
  if (rt.exists) throw new ConflictError('Guild already exists');
  const ownerId = callerId(command.caller);
  const body = bodyOf(GuildCreateSchema, command.body);
  const name = (body.name ?? '').trim();
  if (name.length < 2)
    throw ValidationError.field('name', 'BASE_TYPE_BAD_LENGTH', 'Must be between 2 and 100 in length.');
  const now = rt.nowIso();
  const { channels, systemChannelId } = initialChannels(rt, guildId, body, now);
  const guild: GuildRecord = {
    id: guildId,
    owner_id: ownerId,
    name,
    icon: imageHash('icon', body.icon ?? null),
    fields: { ...defaultGuildFields(), system_channel_id: systemChannelId, region: body.region ?? 'local' },
    created_at: now,
  };
  const everyone: RoleRecord = {
    id: guildId,
    guild_id: guildId,
    name: '@everyone',
    permissions: DEFAULT_EVERYONE_PERMISSIONS.toString(),
    color: 0,
    hoist: false,
    mentionable: false,
    managed: false,
    position: 0,
    icon: null,
    unicode_emoji: null,
    flags: 0,
  };
  const owner = newMember(guildId, ownerId, userSnapshot(command.ownerUserJson, ownerId), now);
  await rt.stores.guilds.saveGuild(guild);
  await rt.stores.guilds.saveRole(everyone);
  await rt.stores.guilds.saveMember(owner);
  for (const channel of channels) await rt.stores.channels.save(channel);
  const state = new GuildState(guild);
  state.putRole(everyone);
  state.members.set(ownerId, owner);
  for (const channel of channels) state.putChannel(channel);
  rt.setState(state);
  rt.tellUser(ownerId, true);
  return jsonReply(guildJson(state));
}

/** get_guild: members only; with_counts adds the approximate counts. */
export function getGuild(rt: GuildRuntime, request: GuildRequest): GuildReply {
  const state = rt.state;
  requireMember(state, callerId(request.caller));
  const json = guildJson(state);
  if (request.withCounts) {
    json['approximate_member_count'] = state.members.size;
    json['approximate_presence_count'] = rt.fanout.userCount;
  }
  return jsonReply(json);
}

/** Image-valued guild fields (a data URI is stored as its hash, as Discord does) and their CDN folders. */
const IMAGE_FIELDS: Readonly<Record<string, HashedImageFolder>> = {
  banner: 'banners',
  splash: 'splashes',
  discovery_splash: 'discovery-splashes',
};

/** Channel-valued guild fields must name a channel of this guild (of a fitting type). */
const CHANNEL_FIELDS: Readonly<Record<string, number | undefined>> = {
  system_channel_id: ChannelType.text,
  rules_channel_id: ChannelType.text,
  public_updates_channel_id: ChannelType.text,
  afk_channel_id: ChannelType.voice,
};

/** update_guild (MANAGE_GUILD): applies GuildUpdateSchema fields; owner_id transfers ownership (owner only). */
export async function updateGuild(rt: GuildRuntime, request: GuildBodyRequest): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(request.caller);
  requireGuildPermission(state, actorId, Permission.MANAGE_GUILD);
  const body = bodyOf(GuildUpdateSchema, request.body);
  const guild: GuildRecord = { ...state.guild, fields: { ...state.guild.fields } };
  let ownerChanged = false;
  for (const [key, value] of Object.entries(body)) {
    // Private records (bans, emojis, templates, ...) change only through their own commands.
    if (value === undefined || key === 'guild_template_code' || PRIVATE_GUILD_FIELDS.has(key)) continue;
    if (key === 'name') {
      const name = String(value).trim();
      if (name.length < 2 || name.length > 100) {
        throw ValidationError.field('name', 'BASE_TYPE_BAD_LENGTH', 'Must be between 2 and 100 in length.');
      }
      guild.name = name;
    } else if (key === 'icon') {
      guild.icon = imageHash('icon', value as string | null);
    } else if (Object.hasOwn(IMAGE_FIELDS, key)) {
      guild.fields[key] = imageHash(key, value as string | null);
    } else if (key === 'owner_id') {
      if (actorId !== state.ownerId) throw new MissingPermissionsError('OWNER');
      if (typeof value !== 'string' || !state.members.has(value)) {
        throw ValidationError.field('owner_id', 'GUILD_OWNER_INVALID', 'The new owner must be a member.');
      }
      ownerChanged = value !== guild.owner_id;
      guild.owner_id = value;
    } else if (key in CHANNEL_FIELDS) {
      const channel = value === null ? undefined : state.channels.get(String(value));
      if (value !== null && (!channel || channel.type !== CHANNEL_FIELDS[key])) {
        throw ValidationError.field(key, 'CHANNEL_INVALID', 'Not a suitable channel of this guild.');
      }
      guild.fields[key] = value;
    } else if (key in guild.fields || key === 'features' || key === 'description') {
      guild.fields[key] = value;
    }
  }
  const before = state.guild;
  await rt.stores.guilds.saveGuild(guild);
  state.guild = guild;
  if (ownerChanged) rt.permissionsChanged();
  const json = guildJson(state);
  rt.emit('GUILD_UPDATE', json);
  await rt.deleteImages([
    ...replacedImageKeys('icons', state.id, before.icon, guild.icon),
    ...Object.entries(IMAGE_FIELDS).flatMap(([field, folder]) =>
      replacedImageKeys(folder, state.id, before.fields[field], guild.fields[field]),
    ),
  ]);
  return jsonReply(json);
}

/** delete_guild (owner only): deletes everything, tells members' sessions GUILD_DELETE and unsubscribes them. */
export async function deleteGuild(rt: GuildRuntime, request: GuildRequest): Promise<GuildReply> {
  const state = rt.state;
  const actorId = callerId(request.caller);
  requireMember(state, actorId);
  if (actorId !== state.ownerId) throw new MissingPermissionsError('OWNER');
  await rt.stores.guilds.deleteGuild(state.id);
  rt.emit('GUILD_DELETE', { id: state.id });
  await rt.subscriptions.clear();
  // Everyone leaves voice (their voice rooms close them 4014); no session is subscribed any more to be told.
  for (const channelId of state.channels.keys()) leaveVoiceOfChannel(rt, channelId);
  for (const userId of state.members.keys()) rt.tellUser(userId, false);
  for (const channelId of state.channels.keys()) rt.tellChannelChanged(channelId, undefined);
  rt.setState(undefined);
  return emptyReply();
}
