import {
  anyValue,
  arr,
  bool,
  choices,
  exactly,
  int,
  nullable,
  num,
  obj,
  oneOfTypes,
  snowflake,
  str,
} from './builders.js';

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
    name: str(),
    type: ActivityType,
    flags: str(),
    session_id: str(),
    url: str(),
    created_at: int(),
    timestamps: obj({ start: int(), end: int() }),
    application_id: snowflake(),
    details: str(),
    state: str(),
    emoji: obj({ name: str(), id: snowflake(), animated: bool() }, ['name', 'animated']),
    party: obj({ id: str(), size: arr(anyValue()) }),
    assets: obj({ large_image: str(), large_text: str(), small_image: str(), small_text: str() }),
    secrets: obj({ join: str(), spectate: str(), match: str() }),
    instance: bool(),
    id: str(),
    sync_id: str(),
    metadata: obj({ context_uri: str(), album_id: str(), artist_ids: arr(str()) }, ['album_id', 'artist_ids']),
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
export const ActivitySchema = obj({ status: Status, afk: bool(), activities: arr(Activity), since: nullable(int()) }, [
  'status',
]);
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
  'browser',
  'device',
  '$os',
  '$browser',
  '$device',
  'browser_user_agent',
  'browser_version',
  'os_version',
  'referrer',
  'referring_domain',
  'referrer_current',
  'referring_domain_current',
  'client_event_source',
  'client_version',
  'system_locale',
] as const;

const clientProperties = obj({
  ...Object.fromEntries(PROPERTY_STRINGS.map((key) => [key, str()])),
  release_channel: choices('string', ['canary', 'dev', 'ptb', 'stable']),
  client_build_number: int(),
});

const clientState = obj({
  guild_hashes: anyValue(),
  guild_versions: anyValue(),
  highest_last_message_id: oneOfTypes(['string', 'integer']),
  read_state_version: int(),
  user_guild_settings_version: int(),
  user_settings_version: int(),
  useruser_guild_settings_version: int(),
  private_channels_version: int(),
  api_code_version: int(),
});

const clientStateCamel = obj({
  guildHashes: anyValue(),
  guildVersions: anyValue(),
  highestLastMessageId: oneOfTypes(['string', 'integer']),
  readStateVersion: int(),
  userGuildSettingsVersion: int(),
  userSettingsVersion: int(),
  useruserGuildSettingsVersion: int(),
  privateChannelsVersion: int(),
  apiCodeVersion: int(),
});

/** Gateway op 2 Identify payload (`shard` is exactly [shard_id, shard_count]). */
export const IdentifySchema = obj(
  {
    token: str(),
    properties: clientProperties,
    intents: num(),
    presence: ActivitySchema,
    compress: bool(),
    large_threshold: int(),
    largeThreshold: int(),
    shard: exactly(2, int()),
    guild_subscriptions: bool(),
    capabilities: int(),
    client_state: clientState,
    clientState: clientStateCamel,
    v: int(),
  },
  ['token', 'properties'],
);
/** Identify `properties`: the client's self-description. */
export type IdentifyPropertiesBody = { [K in (typeof PROPERTY_STRINGS)[number]]?: string } & {
  release_channel?: 'canary' | 'dev' | 'ptb' | 'stable';
  client_build_number?: number;
};
/** Identify `client_state` (snake_case keys; `clientState` carries the camelCase variant). */
export interface IdentifyClientStateBody {
  guild_hashes?: unknown;
  guild_versions?: unknown;
  highest_last_message_id?: string | number;
  read_state_version?: number;
  user_guild_settings_version?: number;
  user_settings_version?: number;
  useruser_guild_settings_version?: number;
  private_channels_version?: number;
  api_code_version?: number;
}
/** Identify `clientState`: the camelCase variant of `client_state`. */
export interface IdentifyClientStateCamelBody {
  guildHashes?: unknown;
  guildVersions?: unknown;
  highestLastMessageId?: string | number;
  readStateVersion?: number;
  userGuildSettingsVersion?: number;
  userSettingsVersion?: number;
  useruserGuildSettingsVersion?: number;
  privateChannelsVersion?: number;
  apiCodeVersion?: number;
}
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
    channels: obj({}),
    activities: bool(),
    threads: bool(),
    typing: choices('boolean', [true]),
    members: arr(str()),
    thread_member_lists: arr(anyValue()),
  },
  ['guild_id'],
);
/** Validated LazyRequestSchema body. */
export interface LazyRequestBody {
  guild_id: string;
  channels?: Record<string, unknown>;
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
    preferred_region: str(),
    request_to_speak_timestamp: str({ format: 'date-time' }),
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
