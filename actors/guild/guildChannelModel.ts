import { ValidationError } from '../../src/domain/errors.js';
import type { ChannelModifyBody, ChannelPermissionOverwriteItem } from '../../src/contract/channel.js';
import type { ChannelRecord } from '../runtime/ports/records.js';
import type { GuildState } from './GuildState.js';

/** Channel types a guild may hold directly: text, voice, category, announcement, stage, forum. */
export const GUILD_CHANNEL_TYPES: ReadonlySet<number> = new Set([0, 2, 4, 5, 13, 15]);

/** Discord's channel type numbers used here. */
export const ChannelType = { text: 0, voice: 2, category: 4, announcement: 5, stage: 13, forum: 15 } as const;

/** Body fields kept in ChannelRecord.fields, with their numeric ranges where Discord has one. */
const FIELD_RANGES: Readonly<Record<string, readonly [number, number] | null>> = {
  topic: null,
  icon: null,
  nsfw: null,
  rtc_region: null,
  default_reaction_emoji: null,
  bitrate: [8000, 384_000],
  user_limit: [0, 99],
  rate_limit_per_user: [0, 21_600],
  default_auto_archive_duration: [60, 10_080],
  flags: [0, 2 ** 31 - 1],
  default_thread_rate_limit_per_user: [0, 21_600],
  video_quality_mode: [1, 2],
};

/** Channel names: 1..100 characters after trimming. */
function checkedName(name: string, path: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > 100) {
    throw ValidationError.field(path, 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 100 in length.');
  }
  return trimmed;
}

/**
 * Overwrites as stored: masks as decimal strings ("0" when the body leaves one out, as on Discord), type 2
 * (not used by guild channels) refused.
 */
export function normalizeOverwrites(list: readonly ChannelPermissionOverwriteItem[], path = 'permission_overwrites') {
  return list.map((o, index) => {
    if (o.type !== 0 && o.type !== 1) {
      throw ValidationError.field(`${path}.${index}.type`, 'BASE_TYPE_CHOICES', 'Value must be one of (0, 1).');
    }
    return { id: o.id, type: o.type, allow: BigInt(o.allow ?? 0).toString(), deny: BigInt(o.deny ?? 0).toString() };
  });
}

/** Copies the optional type-specific fields of a body into the record, checking their ranges. */
function applyFields(channel: ChannelRecord, body: ChannelModifyBody, prefix: string): void {
  for (const [key, range] of Object.entries(FIELD_RANGES)) {
    const value = (body as Record<string, unknown>)[key];
    if (value === undefined) continue;
    if (range && typeof value === 'number' && (value < range[0] || value > range[1])) {
      throw ValidationError.field(`${prefix}${key}`, 'NUMBER_TYPE_MAX', `Must be between ${range[0]} and ${range[1]}.`);
    }
    if (key === 'topic' && typeof value === 'string' && value.length > 1024) {
      throw ValidationError.field(`${prefix}topic`, 'BASE_TYPE_MAX_LENGTH', 'Must be 1024 or fewer in length.');
    }
    channel.fields[key] = value;
  }
}

/** The parent must be a category of this guild, and a category cannot have one (50035 on parent_id). */
export function checkParent(state: GuildState, parentId: string | null, type: number, path = 'parent_id'): void {
  if (parentId === null) return;
  const parent = state.channels.get(parentId);
  if (type === ChannelType.category || !parent || parent.type !== ChannelType.category) {
    throw ValidationError.field(path, 'CHANNEL_PARENT_INVALID', 'Not a category channel in this guild.');
  }
}

/** The position after every channel of the same kind (categories and others are ordered apart). */
export function nextPosition(channels: Iterable<ChannelRecord>, type: number): number {
  let position = 0;
  const category = type === ChannelType.category;
  for (const channel of channels) {
    if ((channel.type === ChannelType.category) === category) position = Math.max(position, channel.position + 1);
  }
  return position;
}

/** A new guild channel record from a validated create body (types outside GUILD_CHANNEL_TYPES: 50035). */
export function newChannelRecord(
  id: string,
  guildId: string,
  body: ChannelModifyBody,
  position: number,
  createdAt: string,
  prefix = '',
): ChannelRecord {
  const type = body.type ?? ChannelType.text;
  if (!GUILD_CHANNEL_TYPES.has(type)) {
    throw ValidationError.field(`${prefix}type`, 'BASE_TYPE_CHOICES', 'Value must be one of (0, 2, 4, 5, 13, 15).');
  }
  if (body.name === undefined) {
    throw ValidationError.field(`${prefix}name`, 'BASE_TYPE_REQUIRED', 'This field is required');
  }
  const channel: ChannelRecord = {
    id,
    guild_id: guildId,
    type,
    name: checkedName(body.name, `${prefix}name`),
    position: body.position ?? position,
    parent_id: type === ChannelType.category ? null : (body.parent_id ?? null),
    permission_overwrites: normalizeOverwrites(body.permission_overwrites ?? [], `${prefix}permission_overwrites`),
    recipient_ids: [],
    owner_id: null,
    last_message_id: null,
    last_pin_timestamp: null,
    fields: {},
    created_at: createdAt,
  };
  applyFields(channel, body, prefix);
  return channel;
}

/**
 * Applies a validated ChannelModifySchema body to a copy of the record. Only text and announcement
 * channels may switch into each other, as on Discord; other type changes are refused (50035).
 */
export function modifiedChannel(state: GuildState, channel: ChannelRecord, body: ChannelModifyBody): ChannelRecord {
  const next: ChannelRecord = {
    ...channel,
    permission_overwrites: [...channel.permission_overwrites],
    fields: { ...channel.fields },
  };
  if (body.type !== undefined && body.type !== channel.type) {
    const swappable = new Set<number>([ChannelType.text, ChannelType.announcement]);
    if (!swappable.has(body.type) || !swappable.has(channel.type)) {
      throw ValidationError.field('type', 'CHANNEL_TYPE_INVALID', 'Cannot change the type of this channel.');
    }
    next.type = body.type;
  }
  if (body.name !== undefined) next.name = checkedName(body.name, 'name');
  if (body.position !== undefined) next.position = body.position;
  if (body.parent_id !== undefined) {
    checkParent(state, body.parent_id, next.type);
    next.parent_id = body.parent_id;
  }
  if (body.permission_overwrites !== undefined)
    next.permission_overwrites = normalizeOverwrites(body.permission_overwrites);
  applyFields(next, body, '');
  return next;
}
