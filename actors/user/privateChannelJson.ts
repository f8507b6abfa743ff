import type { ChannelRecord, UserRecord } from '../runtime/ports/records.js';
import { publicUser } from './userJson.js';

/** Discord's DM and group-DM channel types. */
export const PrivateChannelType = { dm: 1, groupDm: 3 } as const;

/**
 * A DM (type 1) or group DM (type 3) as `viewerId` sees it: `recipients` are the other users, as
 * public user objects (`users` must hold them; missing ones are left out).
 */
export function privateChannelJson(
  channel: ChannelRecord,
  users: ReadonlyMap<string, UserRecord>,
  viewerId: string,
): Record<string, unknown> {
  const recipients = channel.recipient_ids
    .filter((id) => id !== viewerId)
    .map((id) => users.get(id))
    .filter((user): user is UserRecord => user !== undefined)
    .map(publicUser);
  const json: Record<string, unknown> = {
    id: channel.id,
    type: channel.type,
    last_message_id: channel.last_message_id,
    last_pin_timestamp: channel.last_pin_timestamp,
    flags: Number(channel.fields['flags'] ?? 0),
    recipients,
  };
  if (channel.type === PrivateChannelType.groupDm) {
    json['name'] = channel.name;
    json['icon'] = channel.fields['icon'] ?? null;
    json['owner_id'] = channel.owner_id;
  }
  return json;
}
