import { createHash } from 'node:crypto';
import { readyShape } from './capabilities.js';
import { guildsVerbatim, userReady } from './userReady.js';
import { parseJson, parseJsonObject } from '../../src/domain/jsonValue.js';

/** What READY is made of; JSON fields arrive serialized by the actors that own them. */
export interface ReadyInput {
  readonly version: number;
  readonly sessionId: string;
  readonly resumeGatewayUrl: string;
  readonly userId: string;
  /** The private user object (READY.user). */
  readonly userJson: string;
  readonly bot: boolean;
  readonly applicationId: string;
  /** `[shard_id, shard_count]` when the client sent one. */
  readonly shard: readonly [number, number] | undefined;
  /** The session's guilds, in READY order. */
  readonly guildIds: readonly string[];
  /** Their GUILD_CREATE payloads (user accounts get them inline; bots get stubs then GUILD_CREATEs). */
  readonly guildJsons: readonly string[];
  /** The user's own member in each of them as the Guild serialized it apart ('' when it did not). */
  readonly ownMemberJsons?: readonly string[];
  readonly privateChannelsJson: string;
  readonly relationshipsJson: string;
  readonly userSettingsJson: string;
  /** The per-guild settings the user changed (user_guild_settings entries). */
  readonly guildSettingsJson: string;
  /** Where the user stopped reading each channel (read_state entries). */
  readonly readStatesJson: string;
  /** The friends who are not offline, as PRESENCE_UPDATE carries them (none when absent). */
  readonly friendPresencesJson?: string;
  /** The status the client identified with (Identify.presence.status), 'online' by default. */
  readonly status: string;
  readonly propertiesJson: string;
  /** Identify `capabilities`: the shape of a user account's READY (ignored for bots). */
  readonly capabilities: number;
}

/** READY's `d`, and READY_SUPPLEMENTAL's when the client asked for it (PRIORITIZED_READY_PAYLOAD). */
export interface ReadyPayloads {
  readonly ready: string;
  readonly supplemental: string | undefined;
}

const STATUSES: ReadonlySet<string> = new Set(['online', 'idle', 'dnd', 'invisible', 'offline']);

function clientInfo(propertiesJson: string): { client: string; os: string; version: number } {
  const properties = propertiesJson ? parseJsonObject(propertiesJson) : {};
  const os = properties['os'] ?? properties['$os'];
  return { client: 'web', os: typeof os === 'string' ? os : 'unknown', version: 0 };
}

/**
 * READY's `d` as JSON. Bots get Discord's bot shape (`guilds` as `{id, unavailable: true}` stubs, the
 * guilds following as GUILD_CREATE); user accounts get the user-client shape with full guilds inline,
 * shaped by their Identify `capabilities` (see userReady), as Discord's, Jank Client's and Spacebar's
 * clients read it.
 */
export function readyPayloads(input: ReadyInput): ReadyPayloads {
  // `v` and `user` come first, spliced in by withUser.
  const common: Record<string, unknown> = {
    session_id: input.sessionId,
    resume_gateway_url: input.resumeGatewayUrl,
    session_type: 'normal',
    auth_session_id_hash: createHash('sha256').update(input.sessionId).digest('base64url').slice(0, 43),
    guild_join_requests: [],
    geo_ordered_rtc_regions: [],
    presences: [],
    sessions: [
      {
        session_id: input.sessionId,
        status: input.status,
        activities: [],
        client_info: clientInfo(input.propertiesJson),
      },
    ],
    _trace: ['["chorus-gateway",{"micros":0}]'],
  };
  if (input.shard) common['shard'] = [...input.shard];
  if (input.bot) {
    Object.assign(common, {
      private_channels: parseJson(input.privateChannelsJson),
      relationships: parseJson(input.relationshipsJson),
      user_settings: parseJson(input.userSettingsJson),
      application: { id: input.applicationId, flags: 0 },
      guilds: input.guildIds.map((id) => ({ id, unavailable: true })),
    });
    return { ready: withUser(input, JSON.stringify(common)), supplemental: undefined };
  }
  const shape = readyShape(input.capabilities);
  const { fields, supplemental, userSettingsJson } = userReady({
    userId: input.userId,
    shape,
    guildIds: input.guildIds,
    guildJsons: input.guildJsons,
    ownMemberJsons: input.ownMemberJsons, // no spread: keys after one take V8's slow path
    privateChannelsJson: input.privateChannelsJson,
    relationshipsJson: input.relationshipsJson,
    userSettingsJson: input.userSettingsJson,
    guildSettingsJson: input.guildSettingsJson,
    readStatesJson: input.readStatesJson,
    friendPresencesJson: input.friendPresencesJson ?? '[]',
  });
  Object.assign(common, fields, {
    connected_accounts: [],
    experiments: [],
    guild_experiments: [],
    country_code: 'US',
    friend_suggestion_count: 0,
    analytics_token: '',
    consents: { personalization: { consented: false } },
    notification_settings: { flags: 0 },
    tutorial: null,
    api_code_version: 0,
  });
  // The JSON the owning actors serialized goes in as it is, not parsed and serialized again per identify.
  const guilds = guildsVerbatim(shape) ? `,"guilds":[${input.guildJsons.join(',')}]` : '';
  const ready = `${JSON.stringify(common).slice(0, -1)},"user_settings":${userSettingsJson}${guilds}}`;
  return { ready: withUser(input, ready), supplemental: supplemental && JSON.stringify(supplemental) };
}

/** READY's object text with `v` and the private user (as the User actor serialized it) put first. */
function withUser(input: ReadyInput, objectText: string): string {
  return `{"v":${JSON.stringify(input.version)},"user":${input.userJson},${objectText.slice(1)}`;
}

/** The status in Identify.presence, 'online' when absent or not a status. */
export function presenceStatus(presenceJson: string): string {
  if (!presenceJson) return 'online';
  const status = parseJsonObject(presenceJson)['status'];
  // Discord's client identifies with status "unknown" (keep the last one): a fresh session is online.
  return typeof status === 'string' && STATUSES.has(status) ? status : 'online';
}
