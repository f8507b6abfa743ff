import {
  anyValue,
  arr,
  bool,
  choices,
  exactly,
  int,
  mapOf,
  nullable,
  num,
  obj,
  oneOfTypes,
  snowflake,
  str,
} from './builders.js';
import { OPAQUE_MAX_LENGTH, SNOWFLAKE_MAX_LENGTH, TIMESTAMP_MAX_LENGTH, URL_MAX_LENGTH } from './discordLimits.js';

/** Discord's activity strings (name, details, state, asset texts) hold at most 128 characters. */
const ACTIVITY_TEXT_MAX_LENGTH = 128;
/** Activities in one presence: Discord documents no cap; a user client shows a handful. */
const MAX_ACTIVITIES = 16;
const text = () => str({ maxLength: ACTIVITY_TEXT_MAX_LENGTH });
/** Asset keys, party and secret ids, session and sync ids: short opaque strings. */
const shortId = () => str({ maxLength: 256 });

/** Presence status a client may set. */
export const Status = choices('string', ['dnd', 'idle', 'invisible', 'offline', 'online']);
/** Validated Status value. */
export type Status = 'dnd' | 'idle' | 'invisible' | 'offline' | 'online';

/** Activity type a client may report (0 playing, 1 streaming, 2 listening, 4 custom, 5 competing). */
export const ActivityType = choices('number', [0, 1, 2, 4, 5]);
/** Validated ActivityType value. */
export type ActivityType = 0 | 1 | 2 | 4 | 5;

/** One activity inside a presence. */
export const Activity = obj(
  {
    name: text(),
    type: ActivityType,
    flags: str({ maxLength: SNOWFLAKE_MAX_LENGTH }),
    session_id: shortId(),
    url: str({ maxLength: URL_MAX_LENGTH }),
    created_at: int(),
    timestamps: obj({ start: int(), end: int() }),
    application_id: snowflake(),
    details: text(),
    state: text(),
    emoji: obj({ name: str({ maxLength: 32 }), id: snowflake(), animated: bool() }, ['name', 'animated']),
    // [current size, max size]
    party: obj({ id: shortId(), size: arr(int(), { maxItems: 2 }) }),
    assets: obj({ large_image: shortId(), large_text: text(), small_image: shortId(), small_text: text() }),
    secrets: obj({ join: shortId(), spectate: shortId(), match: shortId() }),
    instance: bool(),
    id: shortId(),
    sync_id: shortId(),
    metadata: obj({ context_uri: shortId(), album_id: shortId(), artist_ids: arr(shortId(), { maxItems: 32 }) }, [
      'album_id',
      'artist_ids',
    ]),
  },
  // The spec also requires flags and session_id, but bots (discord.js setPresence) send only name and type;
  // requiring them would reject every bot presence, so only name and type are required.
  ['name', 'type'],
);
/** Validated Activity value. */
export interface Activity {
  name: string;
  type: ActivityType;
  flags?: string;
  session_id?: string;
  url?: string;
  created_at?: number;
  timestamps?: { start?: number; end?: number };
  application_id?: string;
  details?: string;
  state?: string;
  emoji?: { name: string; id?: string; animated: boolean };
  party?: { id?: string; size?: unknown[] };
  assets?: { large_image?: string; large_text?: string; small_image?: string; small_text?: string };
  secrets?: { join?: string; spectate?: string; match?: string };
  instance?: boolean;
  id?: string;
  sync_id?: string;
  metadata?: { context_uri?: string; album_id: string; artist_ids: string[] };
}

/** Presence a client sends (gateway presence update, identify `presence`); `since` may be null, as discord.js sends. */
export const ActivitySchema = obj(
  { status: Status, afk: bool(), activities: arr(Activity, { maxItems: MAX_ACTIVITIES }), since: nullable(int()) },
  ['status'],
);
/** Validated ActivitySchema body. */
export interface ActivityBody {
  status: Status;
  afk?: boolean;
  activities?: Activity[];
  since?: number | null;
}

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

/**
 * Client self-description. Every value is informational: Discord's own clients send null for some and
 * custom clients name their own release channel, so any bounded string (or null) is accepted, and keys
 * not listed here are dropped rather than refused.
 */
const clientProperties = obj({
  ...Object.fromEntries(PROPERTY_STRINGS.map((key) => [key, nullable(str({ maxLength: PROPERTY_MAX_LENGTH }))])),
  release_channel: nullable(str({ maxLength: RELEASE_CHANNEL_MAX_LENGTH })),
  client_build_number: counter(),
  native_build_number: counter(),
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
type ClientStateCounter = (typeof CLIENT_STATE_COUNTERS)[number];
/** `read_state_version` → `readStateVersion`: the keys of the camelCase `clientState` variant. */
type CamelCase<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : S;
const camelCase = (key: string): string => key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

const clientState = obj({
  guild_hashes: anyValue(),
  guild_versions: anyValue(),
  ...Object.fromEntries(CLIENT_STATE_COUNTERS.map((key) => [key, counter()])),
});
const clientStateCamel = obj({
  guildHashes: anyValue(),
  guildVersions: anyValue(),
  ...Object.fromEntries(CLIENT_STATE_COUNTERS.map((key) => [camelCase(key), counter()])),
});

/**
 * Gateway op 2 Identify payload (`shard` is exactly [shard_id, shard_count]). User clients add
 * `capabilities` (a bitfield choosing READY's shape) and `client_state`; bots send `intents`.
 */
export const IdentifySchema = obj(
  {
    token: str({ maxLength: OPAQUE_MAX_LENGTH }),
    properties: clientProperties,
    intents: num(),
    presence: ActivitySchema,
    compress: bool(),
    large_threshold: int(),
    largeThreshold: int(),
    shard: exactly(2, int()),
    guild_subscriptions: bool(),
    capabilities: int({ minimum: 0, maximum: 2 ** 32 - 1 }),
    client_state: clientState,
    clientState: clientStateCamel,
    v: int(),
  },
  ['token', 'properties'],
);
/** A counter a client reports as a number or a numeric string. */
type Counter = number | string | null;
/** Identify `properties`: the client's self-description. */
export type IdentifyPropertiesBody = { [K in (typeof PROPERTY_STRINGS)[number]]?: string | null } & {
  release_channel?: string | null;
  client_build_number?: Counter;
  native_build_number?: Counter;
};
/** Identify `client_state` (snake_case keys; `clientState` carries the camelCase variant). */
export type IdentifyClientStateBody = { guild_hashes?: unknown; guild_versions?: unknown } & {
  [K in ClientStateCounter]?: Counter;
};
/** Identify `clientState`: the camelCase variant of `client_state`. */
export type IdentifyClientStateCamelBody = { guildHashes?: unknown; guildVersions?: unknown } & {
  [K in ClientStateCounter as CamelCase<K>]?: Counter;
};
/** Validated IdentifySchema body. */
export interface IdentifyBody {
  token: string;
  properties: IdentifyPropertiesBody;
  intents?: number;
  presence?: ActivityBody;
  compress?: boolean;
  large_threshold?: number;
  largeThreshold?: number;
  shard?: [number, number];
  guild_subscriptions?: boolean;
  capabilities?: number;
  client_state?: IdentifyClientStateBody;
  clientState?: IdentifyClientStateCamelBody;
  v?: number;
}

/** Gateway op 14 lazy guild request (member list, typing, threads). */
export const LazyRequestSchema = obj(
  {
    guild_id: snowflake(),
    // Member list ranges by channel id: {"<channel id>": [[0, 99], [100, 199]]}.
    channels: mapOf(arr(exactly(2, int()), { maxItems: 10 }), {
      maxProperties: 100,
      keys: str({ maxLength: SNOWFLAKE_MAX_LENGTH }),
    }),
    activities: bool(),
    threads: bool(),
    typing: choices('boolean', [true]),
    members: arr(snowflake(), { maxItems: 100 }),
    thread_member_lists: arr(anyValue(), { maxItems: 100 }),
  },
  ['guild_id'],
);
/** Validated LazyRequestSchema body. */
export interface LazyRequestBody {
  guild_id: string;
  channels?: Record<string, [number, number][]>;
  activities?: boolean;
  threads?: boolean;
  typing?: true;
  members?: string[];
  thread_member_lists?: unknown[];
}

/** Gateway op 4 voice state update; a null channel_id leaves voice, as on Discord. */
export const VoiceStateUpdateSchema = obj(
  {
    self_deaf: bool(),
    self_mute: bool(),
    guild_id: nullable(snowflake()),
    channel_id: nullable(snowflake()),
    self_video: bool(),
    preferred_region: str({ maxLength: 64 }),
    request_to_speak_timestamp: str({ format: 'date-time', maxLength: TIMESTAMP_MAX_LENGTH }),
    suppress: bool(),
  },
  ['self_deaf', 'self_mute'],
);
/** Validated VoiceStateUpdateSchema body. */
export interface VoiceStateUpdateBody {
  self_deaf: boolean;
  self_mute: boolean;
  guild_id?: string | null;
  channel_id?: string | null;
  self_video?: boolean;
  preferred_region?: string;
  request_to_speak_timestamp?: string;
  suppress?: boolean;
}

/** Voice gateway payloads live in voice.ts (same spec section). */
export * from './voice.js';
