import { arr, bool, exactly, int, obj, oneOfTypes, snowflake, str, type JsonSchema } from './builders.js';
import { MessageComponents } from './component.js';
import { MAX_ALLOWED_MENTIONS, MAX_ATTACHMENTS, MAX_EMBEDS, MAX_STICKERS, URL_MAX_LENGTH } from './discordLimits.js';
import { Embed } from './embed.js';

/** Bulk delete: the Channel actor answers Discord's 50016 outside 2..100; this only stops a huge list early. */
const BULK_DELETE_HARD_CAP = 200;

/**
 * Fields shared by MessageCreateSchema and MessageEditSchema. Beyond the spec, as on Discord: content at most 2000,
 * at most 10 embeds, nonce a string (at most 25) or an integer (null: none, as Discord4J sends), flags an integer
 * (a numeric string too) and attachment ids snowflakes (discord.js numbers new uploads "0", "1", ...).
 */
const messageFields: Record<string, JsonSchema> = {
  content: str({ maxLength: 2000 }),
  nonce: oneOfTypes(['string', 'integer'], { maxLength: 25 }),
  channel_id: snowflake(),
  tts: bool(),
  flags: int(),
  embeds: arr(Embed, { maxItems: MAX_EMBEDS }),
  embed: Embed,
  allowed_mentions: obj({
    // "roles", "users", "everyone"
    parse: arr(str({ maxLength: 16 }), { maxItems: 3 }),
    roles: arr(snowflake(), { maxItems: MAX_ALLOWED_MENTIONS }),
    users: arr(snowflake(), { maxItems: MAX_ALLOWED_MENTIONS }),
    replied_user: bool(),
  }),
  message_reference: obj(
    { message_id: snowflake(), channel_id: snowflake(), guild_id: snowflake(), fail_if_not_exists: bool() },
    // The spec marks channel_id required, but discord.js's message.reply() sends only message_id (and
    // Discord accepts that), so requiring it would break real bots: only message_id is required.
    ['message_id'],
  ),
  // Never stored: the body parser has already read it (multipart) and it is capped with the body.
  payload_json: str(),
  file: obj({ filename: str({ maxLength: 1024 }) }, ['filename']),
  // The spec requires filename, but discord.js refers to files[N] by id alone ({id: "0", description}) and
  // keeps attachments on edit by sending them back: only id is required, as on Discord.
  attachments: arr(
    obj(
      {
        id: snowflake(),
        filename: str({ maxLength: 1024 }),
        description: str({ maxLength: 1024 }),
      },
      ['id'],
    ),
    { maxItems: MAX_ATTACHMENTS },
  ),
  sticker_ids: arr(snowflake(), { maxItems: MAX_STICKERS }),
  mobile_network_type: str({ maxLength: 32 }),
  components: MessageComponents,
};

/** PATCH /channels/{id}/messages/{message_id} body. */
export const MessageEditSchema = obj(messageFields);
/** Validated MessageEditSchema body. */
export interface MessageEditBody {
  content?: string;
  nonce?: string | number;
  channel_id?: string;
  tts?: boolean;
  flags?: number;
  embeds?: Embed[];
  embed?: Embed;
  allowed_mentions?: { parse?: string[]; roles?: string[]; users?: string[]; replied_user?: boolean };
  message_reference?: { message_id: string; channel_id?: string; guild_id?: string; fail_if_not_exists?: boolean };
  payload_json?: string;
  file?: { filename: string };
  attachments?: { id: string; filename?: string; description?: string }[];
  sticker_ids?: string[];
  mobile_network_type?: string;
  components?: unknown[];
}

/** POST /channels/{id}/messages body: MessageEditSchema plus the message type. */
export const MessageCreateSchema = obj({ ...messageFields, type: int() });
/** Validated MessageCreateSchema body. */
export interface MessageCreateBody extends MessageEditBody {
  type?: number;
}

/**
 * POST /webhooks/{id}/{token} body: a message plus the name and avatar URL it is sent under (80 is
 * Discord's webhook name limit; the Channel actor checks the name's content).
 */
export const WebhookExecuteSchema = obj({
  ...messageFields,
  username: str({ maxLength: 80 }),
  avatar_url: str({ maxLength: URL_MAX_LENGTH }),
});
/** Validated WebhookExecuteSchema body. */
export interface WebhookExecuteBody extends MessageEditBody {
  username?: string;
  avatar_url?: string;
}

/** POST /channels/{id}/messages/bulk-delete body. */
export const BulkDeleteSchema = obj({ messages: arr(snowflake(), { maxItems: BULK_DELETE_HARD_CAP }) }, ['messages']);
/** Validated BulkDeleteSchema body. */
export interface BulkDeleteBody {
  messages: string[];
}

/** POST /channels/{id}/messages/{message_id}/ack body. */
export const MessageAcknowledgeSchema = obj({ manual: bool(), mention_count: int() });
/** Validated MessageAcknowledgeSchema body. */
export interface MessageAcknowledgeBody {
  manual?: boolean;
  mention_count?: number;
}

/** POST /read-states/ack-bulk body (read_states holds exactly 1 item). */
export const AckBulkSchema = obj(
  {
    read_states: exactly(
      1,
      obj({ channel_id: snowflake(), message_id: snowflake(), read_state_type: int() }, [
        'channel_id',
        'message_id',
        'read_state_type',
      ]),
    ),
  },
  ['read_states'],
);
/** Validated AckBulkSchema body. */
export interface AckBulkBody {
  read_states: [{ channel_id: string; message_id: string; read_state_type: number }];
}

/** Embed and EmbedImage live in embed.ts (same spec section). */
export * from './embed.js';
