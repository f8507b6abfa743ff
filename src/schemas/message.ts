import { anyValue, arr, bool, exactly, int, obj, oneOfTypes, snowflake, str, type JsonSchema } from './builders.js';
import { Embed } from './embed.js';

/**
 * Fields shared by MessageCreateSchema and MessageEditSchema. Beyond the spec, as on Discord: content at most 2000,
 * at most 10 embeds, nonce a string (at most 25) or an integer, flags and attachment ids also as integers.
 */
const messageFields: Record<string, JsonSchema> = {
  content: str({ maxLength: 2000 }),
  nonce: oneOfTypes(['string', 'integer'], { maxLength: 25 }),
  channel_id: snowflake(),
  tts: bool(),
  flags: oneOfTypes(['string', 'integer']),
  embeds: arr(Embed, { maxItems: 10 }),
  embed: Embed,
  allowed_mentions: obj({ parse: arr(str()), roles: arr(snowflake()), users: arr(snowflake()), replied_user: bool() }),
  message_reference: obj(
    { message_id: snowflake(), channel_id: snowflake(), guild_id: snowflake(), fail_if_not_exists: bool() },
    // The spec marks channel_id required, but discord.js's message.reply() sends only message_id (and
    // Discord accepts that), so requiring it would break real bots: only message_id is required.
    ['message_id'],
  ),
  payload_json: str(),
  file: obj({ filename: str() }, ['filename']),
  // The spec requires filename, but discord.js refers to files[N] by id alone ({id: "0", description}) and
  // keeps attachments on edit by sending them back: only id is required, as on Discord.
  attachments: arr(
    obj(
      {
        id: oneOfTypes(['string', 'integer']),
        filename: str({ maxLength: 1024 }),
        description: str({ maxLength: 1024 }),
      },
      ['id'],
    ),
    { maxItems: 10 },
  ),
  sticker_ids: arr(snowflake()),
  mobile_network_type: str(),
  components: arr(anyValue()),
};

/** PATCH /channels/{id}/messages/{message_id} body. */
export const MessageEditSchema = obj(messageFields);
/** Validated MessageEditSchema body. */
export interface MessageEditBody {
  content?: string;
  nonce?: string | number;
  channel_id?: string;
  tts?: boolean;
  flags?: string | number;
  embeds?: Embed[];
  embed?: Embed;
  allowed_mentions?: { parse?: string[]; roles?: string[]; users?: string[]; replied_user?: boolean };
  message_reference?: { message_id: string; channel_id?: string; guild_id?: string; fail_if_not_exists?: boolean };
  payload_json?: string;
  file?: { filename: string };
  attachments?: { id: string | number; filename?: string; description?: string }[];
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

/** POST /channels/{id}/messages/bulk-delete body. */
export const BulkDeleteSchema = obj({ messages: arr(snowflake()) }, ['messages']);
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
