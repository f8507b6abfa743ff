import type { ChannelRecord } from '../runtime/ports/records.js';
import { publicUserOf, type PublicUser } from './publicUser.js';

/** Discord channel types this actor treats specially (docs/rest.md §7). */
export const ChannelType = { GUILD_TEXT: 0, DM: 1, GUILD_VOICE: 2, GROUP_DM: 3, GUILD_CATEGORY: 4 } as const;

/** Types that hold messages (text, DM, voice text chat, group DM, announcement, threads, stage). */
const MESSAGE_TYPES = new Set([0, 1, 2, 3, 5, 10, 11, 12, 13]);

/** True when messages can be sent in a channel of this type (not a category, forum, directory...). */
export function holdsMessages(type: number): boolean {
  return MESSAGE_TYPES.has(type);
}

/** True for DMs and group DMs (no guild; access by recipient list). */
export function isPrivate(channel: ChannelRecord): boolean {
  return channel.guild_id === null;
}

/**
 * Public users of a private channel's recipients: the snapshots its record keeps in
 * `fields.recipients` (written by whoever opened the DM), else what `fallback` knows (else `{id}`).
 */
export function recipientUsers(channel: ChannelRecord, fallback: (id: string) => PublicUser): PublicUser[] {
  const stored = new Map<string, PublicUser>();
  const kept = channel.fields['recipients'];
  if (Array.isArray(kept)) {
    for (const entry of kept) {
      const user = publicUserOf(entry);
      if (user) stored.set(user.id, user);
    }
  }
  return channel.recipient_ids.map((id) => stored.get(id) ?? fallback(id));
}

/**
 * The Discord channel object of a record, as `viewerId` sees it: a DM's `recipients` exclude the
 * viewer (an empty viewer sees them all). Extra fields (topic, nsfw, bitrate, ...) come from `fields`.
 */
export function channelJson(
  channel: ChannelRecord,
  viewerId: string,
  userOf: (id: string) => PublicUser,
): Record<string, unknown> {
  // Recipient snapshots kept in the record are rendered as `recipients` below, not copied raw.
  const extra = { ...channel.fields };
  delete extra['recipients'];
  if (isPrivate(channel)) {
    const json: Record<string, unknown> = {
      id: channel.id,
      type: channel.type,
      last_message_id: channel.last_message_id,
      flags: 0,
      recipients: recipientUsers(channel, userOf).filter((user) => user.id !== viewerId),
      ...extra,
    };
    if (channel.type === ChannelType.GROUP_DM) {
      json['name'] = channel.name;
      json['owner_id'] = channel.owner_id;
      json['icon'] ??= null;
    }
    if (channel.last_pin_timestamp !== null) json['last_pin_timestamp'] = channel.last_pin_timestamp;
    return json;
  }
  const json: Record<string, unknown> = {
    id: channel.id,
    type: channel.type,
    guild_id: channel.guild_id,
    name: channel.name,
    position: channel.position,
    parent_id: channel.parent_id,
    permission_overwrites: channel.permission_overwrites,
    flags: 0,
    nsfw: false,
    ...extra,
  };
  if (holdsMessages(channel.type)) {
    json['last_message_id'] = channel.last_message_id;
    json['rate_limit_per_user'] ??= 0;
    if (channel.type !== ChannelType.GUILD_VOICE) json['topic'] ??= null;
  }
  if (channel.last_pin_timestamp !== null) json['last_pin_timestamp'] = channel.last_pin_timestamp;
  return json;
}
