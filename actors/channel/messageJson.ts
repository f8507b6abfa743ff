import type { MessageRecord } from '../runtime/ports/records.js';
import { isPublicUser, type PublicUser } from './publicUser.js';
import type { ReactionJson } from './reactions.js';
import { parseJson } from '../../src/domain/jsonValue.js';

/** Message types (docs/rest.md §7). */
export const MessageType = { DEFAULT: 0, CHANNEL_PINNED_MESSAGE: 6, REPLY: 19, CHAT_INPUT_COMMAND: 20 } as const;

/** Types a user may not delete (recipient add/remove, call, channel name/icon change, thread starter). */
const UNDELETABLE_TYPES = new Set([1, 2, 3, 4, 5, 21]);

/** True when Discord lets this message type be deleted. */
export function isDeletableType(type: number): boolean {
  return !UNDELETABLE_TYPES.has(type);
}

/** How to render the parts of a message that are not in its record. */
export interface MessageRendering {
  /** Public user of a mentioned id (a snapshot the channel knows, else `{id}`). */
  readonly userOf: (id: string) => PublicUser;
  /** Reactions relative to the viewer; none (`[]`) when undefined. */
  readonly reactions?: readonly ReactionJson[] | undefined;
  /** The replied-to message: a record, null when it was deleted, undefined when not loaded (nested). */
  readonly referenced?: MessageRecord | null | undefined;
  /** The author object, when the caller already has it parsed (saves a JSON.parse on the hot path). */
  readonly author?: PublicUser | undefined;
}

/** Parses a stored author snapshot; a broken one still yields an author with the right id. */
export function authorOf(record: MessageRecord): PublicUser {
  try {
    const author = parseJson(record.author_json);
    if (isPublicUser(author)) return author;
  } catch {
    // fall through: an author must always be present
  }
  return { id: record.author_id };
}

/** The Discord message object for a stored message (REST and gateway shape; events add guild_id/member). */
export function messageJson(record: MessageRecord, rendering: MessageRendering): Record<string, unknown> {
  const json: Record<string, unknown> = {
    type: record.type,
    content: record.content,
    mentions: record.mention_ids.map(rendering.userOf),
    mention_roles: record.mention_role_ids,
    attachments: record.attachments,
    embeds: record.embeds,
    timestamp: record.timestamp,
    edited_timestamp: record.edited_timestamp,
    flags: record.flags,
    components: record.components,
    id: record.id,
    channel_id: record.channel_id,
    author: rendering.author ?? authorOf(record),
    pinned: record.pinned,
    mention_everyone: record.mention_everyone,
    tts: record.tts,
    // Always an array, as Discord sends it: Jank Client reads `reactions.length` on every message.
    reactions: rendering.reactions ?? [],
  };
  if (record.nonce !== null) json['nonce'] = record.nonce;
  if (record.webhook_id !== null) json['webhook_id'] = record.webhook_id;
  if (record.application_id !== undefined) json['application_id'] = record.application_id;
  if (record.interaction_metadata !== undefined) {
    json['interaction_metadata'] = record.interaction_metadata;
    json['interaction'] = legacyInteraction(record.interaction_metadata);
  }
  if (record.sticker_ids.length > 0) {
    json['sticker_items'] = record.sticker_ids.map((id) => ({ id, name: '', format_type: 1 }));
  }
  if (record.message_reference !== null) {
    json['message_reference'] = { type: 0, ...record.message_reference };
    if (rendering.referenced !== undefined) {
      json['referenced_message'] =
        rendering.referenced === null ? null : messageJson(rendering.referenced, { userOf: rendering.userOf });
    }
  }
  return json;
}

/** The deprecated `interaction` field (MessageInteraction) some libraries still read, from the metadata. */
function legacyInteraction(metadata: Record<string, unknown>): Record<string, unknown> {
  return { id: metadata['id'], type: metadata['type'], name: metadata['name'] ?? '', user: metadata['user'] };
}

/**
 * A rendered message as a MESSAGE_UPDATE carries it to everyone: without `reactions`, whose `me` is
 * per viewer, so a client keeps the reactions it knows (an empty list would wipe them in Jank Client).
 */
export function forUpdateEvent(json: Readonly<Record<string, unknown>> | undefined): Record<string, unknown> {
  const out = { ...json };
  delete out['reactions'];
  return out;
}

/**
 * A gateway payload built from an already serialized object by appending fields, so the message is
 * serialized once for both the reply and the event. `extra` values are raw JSON texts.
 */
export function withJsonFields(objectJson: string, extra: Readonly<Record<string, string>>): string {
  let tail = '';
  for (const [key, raw] of Object.entries(extra)) tail += `,${JSON.stringify(key)}:${raw}`;
  if (tail === '') return objectJson;
  return objectJson === '{}' ? `{${tail.slice(1)}}` : `${objectJson.slice(0, -1)}${tail}}`;
}
