import { Type, type Static, type TOptionalWithFlag, type TSchema } from '@sinclair/typebox';
import { OPAQUE_MAX_LENGTH, SNOWFLAKE_MAX_LENGTH, TIMESTAMP_MAX_LENGTH, URL_MAX_LENGTH } from './discordLimits.js';
import {
  boundedArray,
  boundedMap,
  choices,
  closedObject,
  exactly,
  integer,
  nullable,
  numeric,
  oneOfTypes,
  snowflake,
} from './wireTypes.js';

/** Discord's activity strings (name, details, state, asset texts) hold at most 128 characters. */
const ACTIVITY_TEXT_MAX_LENGTH = 128;
/** Activities in one presence: Discord documents no cap; a user client shows a handful. */
const MAX_ACTIVITIES = 16;
const text = () => Type.String({ maxLength: ACTIVITY_TEXT_MAX_LENGTH });
/** Asset keys, party and secret ids, session and sync ids: short opaque strings. */
const shortId = () => Type.String({ maxLength: 256 });

/** Presence status a client may set. */
export const Status = choices('string', ['dnd', 'idle', 'invisible', 'offline', 'online']);
/** Validated Status value. */
export type Status = Static<typeof Status>;

/** Activity type a client may report (0 playing, 1 streaming, 2 listening, 4 custom, 5 competing). */
export const ActivityType = choices('number', [0, 1, 2, 4, 5]);
/** Validated ActivityType value. */
export type ActivityType = Static<typeof ActivityType>;

/** One activity inside a presence. */
export const Activity = closedObject({
  name: text(),
  type: ActivityType,
  flags: Type.Optional(Type.String({ maxLength: SNOWFLAKE_MAX_LENGTH })),
  session_id: Type.Optional(shortId()),
  url: Type.Optional(Type.String({ maxLength: URL_MAX_LENGTH })),
  created_at: Type.Optional(integer()),
  timestamps: Type.Optional(closedObject({ start: Type.Optional(integer()), end: Type.Optional(integer()) })),
  application_id: Type.Optional(snowflake()),
  details: Type.Optional(text()),
  state: Type.Optional(text()),
  emoji: Type.Optional(
    closedObject({ name: Type.String({ maxLength: 32 }), id: Type.Optional(snowflake()), animated: Type.Boolean() }),
  ),
  // [current size, max size]
  party: Type.Optional(
    closedObject({ id: Type.Optional(shortId()), size: Type.Optional(boundedArray(integer(), { maxItems: 2 })) }),
  ),
  assets: Type.Optional(
    closedObject({
      large_image: Type.Optional(shortId()),
      large_text: Type.Optional(text()),
      small_image: Type.Optional(shortId()),
      small_text: Type.Optional(text()),
    }),
  ),
  secrets: Type.Optional(
    closedObject({
      join: Type.Optional(shortId()),
      spectate: Type.Optional(shortId()),
      match: Type.Optional(shortId()),
    }),
  ),
  instance: Type.Optional(Type.Boolean()),
  id: Type.Optional(shortId()),
  sync_id: Type.Optional(shortId()),
  metadata: Type.Optional(
    closedObject({
      context_uri: Type.Optional(shortId()),
      album_id: shortId(),
      artist_ids: boundedArray(shortId(), { maxItems: 32 }),
    }),
  ),
});
/** Validated Activity value. */
export type Activity = Static<typeof Activity>;

/** Presence a client sends (gateway presence update, identify `presence`); `since` may be null, as discord.js sends. */
export const ActivitySchema = closedObject({
  status: Status,
  afk: Type.Optional(Type.Boolean()),
  activities: Type.Optional(boundedArray(Activity, { maxItems: MAX_ACTIVITIES })),
  since: Type.Optional(nullable(integer())),
});
/** Validated ActivitySchema body. */
export type ActivityBody = Static<typeof ActivitySchema>;

const PROPERTY_STRINGS = [
  'os',
  'os_atch',
  'os_arch',
  'app_arch',
  'browser',
  'device',
  '$os',
  '$browser',
  '$device',
  'browser_user_agent',
  'browser_version',
  'os_version',
  'system_locale',
  'referrer',
  'referring_domain',
  'referrer_current',
  'referring_domain_current',
  'search_engine',
  'search_engine_current',
  'client_event_source',
  'client_version',
  'client_app_state',
  'client_launch_id',
  'client_heartbeat_session_id',
  'distro',
  'window_manager',
] as const;

/** Longest informational property (a browser user agent is the longest a client sends). */
const PROPERTY_MAX_LENGTH = 1024;
/** Release channels are names ("stable", "canary", or "Custom" in Jank Client): short, but any string. */
const RELEASE_CHANNEL_MAX_LENGTH = 64;
/** A version counter or id a client reports as a number or a numeric string. */
const counter = () => oneOfTypes(['integer', 'string', 'null'], { maxLength: SNOWFLAKE_MAX_LENGTH });

/** One optional field per key, each of schema `make()` (fields listed by name, such as client properties). */
function optionalFields<const K extends string, T extends TSchema>(
  keys: readonly K[],
  make: () => T,
): Record<K, TOptionalWithFlag<T, true>> {
  const fields: Partial<Record<K, TOptionalWithFlag<T, true>>> = {};
  for (const key of keys) fields[key] = Type.Optional(make());
  // Every key of `keys` was just given its field.
  return fields as Record<K, TOptionalWithFlag<T, true>>;
}

/**
 * Client self-description. Every value is informational: Discord's own clients send null for some and
 * custom clients name their own release channel, so any bounded string (or null) is accepted, and keys
 * not listed here are dropped rather than refused.
 */
const clientProperties = closedObject({
  ...optionalFields(PROPERTY_STRINGS, () => nullable(Type.String({ maxLength: PROPERTY_MAX_LENGTH }))),
  release_channel: Type.Optional(nullable(Type.String({ maxLength: RELEASE_CHANNEL_MAX_LENGTH }))),
  client_build_number: Type.Optional(counter()),
  native_build_number: Type.Optional(counter()),
});

/** Versions of what the client has cached (Discord's client sends some as strings, -1 for "none"). */
const CLIENT_STATE_COUNTERS = [
  'highest_last_message_id',
  'read_state_version',
  'user_guild_settings_version',
  'user_settings_version',
  'useruser_guild_settings_version',
  'private_channels_version',
  'api_code_version',
  'initial_guild_id',
] as const;
/** `read_state_version` → `readStateVersion`: the keys of the camelCase `clientState` variant. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;
// The cast restates in the type system what the replace does to the text.
const camelCase = <S extends string>(key: S) =>
  key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()) as CamelCase<S>;

const clientState = closedObject({
  guild_hashes: Type.Optional(Type.Unknown()),
  guild_versions: Type.Optional(Type.Unknown()),
  ...optionalFields(CLIENT_STATE_COUNTERS, counter),
});
const clientStateCamel = closedObject({
  guildHashes: Type.Optional(Type.Unknown()),
  guildVersions: Type.Optional(Type.Unknown()),
  ...optionalFields(CLIENT_STATE_COUNTERS.map(camelCase), counter),
});

/**
 * Gateway op 2 Identify payload (`shard` is exactly [shard_id, shard_count]). User clients add
 * `capabilities` (a bitfield choosing READY's shape) and `client_state`; bots send `intents`.
 */
export const IdentifySchema = closedObject({
  token: Type.String({ maxLength: OPAQUE_MAX_LENGTH }),
  properties: clientProperties,
  intents: Type.Optional(numeric()),
  presence: Type.Optional(ActivitySchema),
  compress: Type.Optional(Type.Boolean()),
  large_threshold: Type.Optional(integer()),
  largeThreshold: Type.Optional(integer()),
  shard: Type.Optional(exactly(2, integer())),
  guild_subscriptions: Type.Optional(Type.Boolean()),
  capabilities: Type.Optional(integer({ minimum: 0, maximum: 2 ** 32 - 1 })),
  client_state: Type.Optional(clientState),
  clientState: Type.Optional(clientStateCamel),
  v: Type.Optional(integer()),
});
/** Validated IdentifySchema body. */
export type IdentifyBody = Static<typeof IdentifySchema>;

/** Gateway op 14 lazy guild request (member list, typing, threads). */
export const LazyRequestSchema = closedObject({
  guild_id: snowflake(),
  // Member list ranges by channel id: {"<channel id>": [[0, 99], [100, 199]]}.
  channels: Type.Optional(
    boundedMap(boundedArray(exactly(2, integer()), { maxItems: 10 }), {
      maxProperties: 100,
      keys: Type.String({ maxLength: SNOWFLAKE_MAX_LENGTH }),
    }),
  ),
  activities: Type.Optional(Type.Boolean()),
  threads: Type.Optional(Type.Boolean()),
  typing: Type.Optional(choices('boolean', [true])),
  members: Type.Optional(boundedArray(snowflake(), { maxItems: 100 })),
  thread_member_lists: Type.Optional(boundedArray(Type.Unknown(), { maxItems: 100 })),
});
/** Validated LazyRequestSchema body. */
export type LazyRequestBody = Static<typeof LazyRequestSchema>;

/** Gateway op 4 voice state update; a null channel_id leaves voice, as on Discord. */
export const VoiceStateUpdateSchema = closedObject({
  self_deaf: Type.Boolean(),
  self_mute: Type.Boolean(),
  guild_id: Type.Optional(nullable(snowflake())),
  channel_id: Type.Optional(nullable(snowflake())),
  self_video: Type.Optional(Type.Boolean()),
  preferred_region: Type.Optional(Type.String({ maxLength: 64 })),
  request_to_speak_timestamp: Type.Optional(Type.String({ format: 'date-time', maxLength: TIMESTAMP_MAX_LENGTH })),
  suppress: Type.Optional(Type.Boolean()),
});
/** Validated VoiceStateUpdateSchema body. */
export type VoiceStateUpdateBody = Static<typeof VoiceStateUpdateSchema>;

/** Voice gateway payloads live in voice.ts (same spec section). */
export * from './voice.js';
