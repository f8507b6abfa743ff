import { Type, type Static } from '@sinclair/typebox';
import { MessageComponents } from './component.js';
import { MAX_ALLOWED_MENTIONS, MAX_ATTACHMENTS, MAX_EMBEDS, MAX_STICKERS, URL_MAX_LENGTH } from './discordLimits.js';
import { boundedArray, closedObject, exactly, integer, oneOfTypes, snowflake } from './wireTypes.js';
import { Embed } from './embed.js';

/** Bulk delete: the Channel actor answers Discord's 50016 outside 2..100; this only stops a huge list early. */
const BULK_DELETE_HARD_CAP = 200;

/**
 * Fields shared by MessageCreateSchema and MessageEditSchema. Beyond the spec, as on Discord: content at most 2000,
 * at most 10 embeds, nonce a string (at most 25) or an integer (null: none, as Discord4J sends), flags an integer
 * (a numeric string too) and attachment ids snowflakes (discord.js numbers new uploads "0", "1", ...).
 */
const messageFields = {
  content: Type.Optional(Type.String({ maxLength: 2000 })),
  nonce: Type.Optional(oneOfTypes(['string', 'integer'], { maxLength: 25 })),
  channel_id: Type.Optional(snowflake()),
  tts: Type.Optional(Type.Boolean()),
  flags: Type.Optional(integer()),
  embeds: Type.Optional(boundedArray(Embed, { maxItems: MAX_EMBEDS })),
  embed: Type.Optional(Embed),
  allowed_mentions: Type.Optional(
    closedObject({
      // "roles", "users", "everyone"
      parse: Type.Optional(boundedArray(Type.String({ maxLength: 16 }), { maxItems: 3 })),
      roles: Type.Optional(boundedArray(snowflake(), { maxItems: MAX_ALLOWED_MENTIONS })),
      users: Type.Optional(boundedArray(snowflake(), { maxItems: MAX_ALLOWED_MENTIONS })),
      replied_user: Type.Optional(Type.Boolean()),
    }),
  ),
  // The spec marks channel_id required, but discord.js's message.reply() sends only message_id (and
  // Discord accepts that), so requiring it would break real bots: only message_id is required.
  message_reference: Type.Optional(
    closedObject({
      message_id: snowflake(),
      channel_id: Type.Optional(snowflake()),
      guild_id: Type.Optional(snowflake()),
      fail_if_not_exists: Type.Optional(Type.Boolean()),
    }),
  ),
  // Never stored: the body parser has already read it (multipart) and it is capped with the body.
  payload_json: Type.Optional(Type.String()),
  file: Type.Optional(closedObject({ filename: Type.String({ maxLength: 1024 }) })),
  // The spec requires filename, but discord.js refers to files[N] by id alone ({id: "0", description}) and
  // keeps attachments on edit by sending them back: only id is required, as on Discord.
  attachments: Type.Optional(
    boundedArray(
      closedObject({
        id: snowflake(),
        filename: Type.Optional(Type.String({ maxLength: 1024 })),
        description: Type.Optional(Type.String({ maxLength: 1024 })),
      }),
      { maxItems: MAX_ATTACHMENTS },
    ),
  ),
  sticker_ids: Type.Optional(boundedArray(snowflake(), { maxItems: MAX_STICKERS })),
  mobile_network_type: Type.Optional(Type.String({ maxLength: 32 })),
  components: Type.Optional(MessageComponents),
};

/** PATCH /channels/{id}/messages/{message_id} body. */
export const MessageEditSchema = closedObject(messageFields);
/** Validated MessageEditSchema body. */
export type MessageEditBody = Static<typeof MessageEditSchema>;

/** POST /channels/{id}/messages body: MessageEditSchema plus the message type. */
export const MessageCreateSchema = closedObject({ ...messageFields, type: Type.Optional(integer()) });
/** Validated MessageCreateSchema body. */
export type MessageCreateBody = Static<typeof MessageCreateSchema>;

/**
 * POST /webhooks/{id}/{token} body: a message plus the name and avatar URL it is sent under (80 is
 * Discord's webhook name limit; the Channel actor checks the name's content).
 */
export const WebhookExecuteSchema = closedObject({
  ...messageFields,
  username: Type.Optional(Type.String({ maxLength: 80 })),
  avatar_url: Type.Optional(Type.String({ maxLength: URL_MAX_LENGTH })),
});
/** Validated WebhookExecuteSchema body. */
export type WebhookExecuteBody = Static<typeof WebhookExecuteSchema>;

/** POST /channels/{id}/messages/bulk-delete body. */
export const BulkDeleteSchema = closedObject({
  messages: boundedArray(snowflake(), { maxItems: BULK_DELETE_HARD_CAP }),
});
/** Validated BulkDeleteSchema body. */
export type BulkDeleteBody = Static<typeof BulkDeleteSchema>;

/** POST /channels/{id}/messages/{message_id}/ack body. */
export const MessageAcknowledgeSchema = closedObject({
  manual: Type.Optional(Type.Boolean()),
  mention_count: Type.Optional(integer()),
});
/** Validated MessageAcknowledgeSchema body. */
export type MessageAcknowledgeBody = Static<typeof MessageAcknowledgeSchema>;

/** POST /read-states/ack-bulk body (read_states holds exactly 1 item). */
export const AckBulkSchema = closedObject({
  read_states: exactly(
    1,
    closedObject({ channel_id: snowflake(), message_id: snowflake(), read_state_type: integer() }),
  ),
});
/** Validated AckBulkSchema body. */
export type AckBulkBody = Static<typeof AckBulkSchema>;

/** Embed and EmbedImage live in embed.ts (same spec section). */
export * from './embed.js';
