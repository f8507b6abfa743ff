import type { CreateFromTemplate, GuildReply } from '../../proto/gen/chorus/v1/guild.js';
import { ConflictError, UnknownEntityError, ValidationError } from '../../src/domain/errors.js';
import { parsePermissions } from '../../src/domain/permissions.js';
import type { ChannelModifyBody } from '../../src/contract/channel.js';
import type { ChannelRecord, GuildRecord, RoleRecord } from '../runtime/ports/records.js';
import { imageHash } from '../../src/domain/imageHash.js';
import type { GuildRuntime } from './GuildRuntime.js';
import { callerId, jsonReply } from './GuildRuntime.js';
import { GuildState } from './GuildState.js';
import { ChannelType, newChannelRecord } from './guildChannelModel.js';
import { defaultGuildFields, guildJson } from './guildJson.js';
import { newMember, userSnapshot } from './guildLifecycle.js';
import type { SerializedGuild, TemplateChannel, TemplateRole } from './templateSnapshot.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { GuildTemplateCreateSchema } from '../../src/contract/index.js';
import { isJsonObject, parseJsonObject } from '../../src/domain/jsonValue.js';

/** A template comes from another guild of this instance, so it holds at most that guild's roles and channels. */
const MAX_TEMPLATE_ROLES = 250;
const MAX_TEMPLATE_CHANNELS = 500;

/** True when a template's `serialized_source_guild` has what a guild is made from: roles (at least one) and channels. */
function isSnapshot(value: unknown): value is SerializedGuild {
  if (!isJsonObject(value)) return false;
  const { roles, channels } = value;
  return Array.isArray(roles) && roles.length > 0 && Array.isArray(channels);
}

/** The snapshot inside a template document; 404 10057 when there is none. */
function snapshotOf(templateJson: string): SerializedGuild {
  const snapshot = parseJsonObject(templateJson || '{}')['serialized_source_guild'];
  if (!isSnapshot(snapshot)) throw new UnknownEntityError('template');
  return snapshot;
}

function roleFrom(guildId: string, id: string, role: TemplateRole, position: number): RoleRecord {
  return {
    id,
    guild_id: guildId,
    name: id === guildId ? '@everyone' : role.name,
    permissions: parsePermissions(role.permissions).toString(),
    color: Number.isInteger(role.color) ? role.color : 0,
    hoist: role.hoist,
    mentionable: role.mentionable,
    managed: false,
    position,
    icon: role.icon ?? null,
    unicode_emoji: role.unicode_emoji ?? null,
    flags: 0,
  };
}

/** Channels with fresh ids; parents and role overwrites are mapped from template ids to the new ones. */
function channelsFrom(
  rt: GuildRuntime,
  guildId: string,
  template: readonly TemplateChannel[],
  roleIds: ReadonlyMap<number, string>,
  now: string,
): { channels: ChannelRecord[]; ids: Map<number, string> } {
  const ids = new Map<number, string>();
  const channels = template.map((item, index) => {
    const id = rt.ctx.ids.next();
    ids.set(item.id, id);
    // Parents and overwrites name template ids: set below, once every channel has its new id.
    const body = { ...item, id: undefined, parent_id: null, permission_overwrites: [] } as unknown as ChannelModifyBody;
    const channel = newChannelRecord(id, guildId, body, item.position, now, `channels.${index}.`);
    channel.permission_overwrites = item.permission_overwrites.flatMap((o) => {
      const roleId = roleIds.get(o.id);
      return roleId === undefined ? [] : [{ id: roleId, type: 0, allow: o.allow, deny: o.deny }];
    });
    return channel;
  });
  template.forEach((item, index) => {
    const channel = channels[index] as ChannelRecord;
    const parent = item.parent_id === null ? undefined : channels.find((c) => c.id === ids.get(item.parent_id ?? -1));
    channel.parent_id =
      parent?.type === ChannelType.category && channel.type !== ChannelType.category ? parent.id : null;
  });
  return { channels, ids };
}

/**
 * create_from_template (POST /guilds/templates/{code}, to the new guild's actor): the template's roles
 * (its role 0 becomes @everyone), channels with their role overwrites, and settings; the caller owns it.
 */
export async function createFromTemplate(
  rt: GuildRuntime,
  guildId: string,
  command: CreateFromTemplate,
): Promise<GuildReply> {
  if (rt.exists) throw new ConflictError('Guild already exists');
  const ownerId = callerId(command.caller);
  const body = bodyOf(GuildTemplateCreateSchema, command.body);
  const name = body.name.trim();
  if (name.length < 2 || name.length > 100) {
    throw ValidationError.field('name', 'BASE_TYPE_BAD_LENGTH', 'Must be between 2 and 100 in length.');
  }
  const snapshot = snapshotOf(command.templateJson);
  const now = rt.nowIso();
  const roleIds = new Map<number, string>();
  const roles = snapshot.roles.slice(0, MAX_TEMPLATE_ROLES).map((role, index) => {
    const id = index === 0 ? guildId : rt.ctx.ids.next();
    roleIds.set(role.id, id);
    return roleFrom(guildId, id, role, index);
  });
  const { channels, ids } = channelsFrom(rt, guildId, snapshot.channels.slice(0, MAX_TEMPLATE_CHANNELS), roleIds, now);
  const channelRef = (ref: number | null): string | null => (ref === null ? null : (ids.get(ref) ?? null));
  const guild: GuildRecord = {
    id: guildId,
    owner_id: ownerId,
    name,
    icon: imageHash('avatar', body.avatar ?? null),
    fields: {
      ...defaultGuildFields(),
      description: snapshot.description ?? null,
      region: snapshot.region || 'local',
      verification_level: snapshot.verification_level,
      default_message_notifications: snapshot.default_message_notifications,
      explicit_content_filter: snapshot.explicit_content_filter,
      preferred_locale: snapshot.preferred_locale || 'en-US',
      afk_timeout: snapshot.afk_timeout,
      afk_channel_id: channelRef(snapshot.afk_channel_id),
      system_channel_id: channelRef(snapshot.system_channel_id),
      system_channel_flags: snapshot.system_channel_flags,
    },
    created_at: now,
  };
  const owner = newMember(guildId, ownerId, userSnapshot(command.ownerUserJson, ownerId), now);
  await rt.stores.guilds.saveGuild(guild);
  for (const role of roles) await rt.stores.guilds.saveRole(role);
  await rt.stores.guilds.saveMember(owner);
  for (const channel of channels) await rt.stores.channels.save(channel);
  const state = new GuildState(guild);
  for (const role of roles) state.putRole(role);
  state.members.set(ownerId, owner);
  for (const channel of channels) state.putChannel(channel);
  rt.setState(state);
  rt.tellUser(ownerId, true);
  return jsonReply(guildJson(state));
}
