import { createHash } from 'node:crypto';

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
  readonly privateChannelsJson: string;
  readonly relationshipsJson: string;
  readonly userSettingsJson: string;
  /** The status the client identified with (Identify.presence.status), 'online' by default. */
  readonly status: string;
  readonly propertiesJson: string;
}

interface GuildMembers {
  members?: { user?: { id?: string } }[];
}

/** The user's own member object in each guild, as `merged_members` carries it (user_id instead of user). */
function mergedMembers(guildJsons: readonly string[], userId: string): unknown[][] {
  return guildJsons.map((json) => {
    const own = (JSON.parse(json) as GuildMembers).members?.find((member) => member.user?.id === userId);
    if (!own) return [];
    const merged: Record<string, unknown> = { ...own, user_id: userId };
    delete merged['user'];
    return [merged];
  });
}

function clientInfo(propertiesJson: string): { client: string; os: string; version: number } {
  const properties = (propertiesJson ? JSON.parse(propertiesJson) : {}) as Record<string, unknown>;
  const os = properties['os'] ?? properties['$os'];
  return { client: 'web', os: typeof os === 'string' ? os : 'unknown', version: 0 };
}

/**
 * READY's `d` as JSON. Bots get Discord's bot shape (`guilds` as `{id, unavailable: true}` stubs, the
 * guilds following as GUILD_CREATE); user accounts get the user-client shape with full guilds inline,
 * as Discord's and Spacebar's clients expect. Guild JSON is spliced in, not re-serialized.
 */
export function readyPayload(input: ReadyInput): string {
  const user = JSON.parse(input.userJson) as unknown;
  const common: Record<string, unknown> = {
    v: input.version,
    user,
    session_id: input.sessionId,
    resume_gateway_url: input.resumeGatewayUrl,
    session_type: 'normal',
    auth_session_id_hash: createHash('sha256').update(input.sessionId).digest('base64url').slice(0, 43),
    private_channels: JSON.parse(input.privateChannelsJson) as unknown,
    relationships: JSON.parse(input.relationshipsJson) as unknown,
    user_settings: JSON.parse(input.userSettingsJson) as unknown,
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
    common['application'] = { id: input.applicationId, flags: 0 };
    common['guilds'] = input.guildIds.map((id) => ({ id, unavailable: true }));
    return JSON.stringify(common);
  }
  Object.assign(common, {
    users: [],
    merged_members: mergedMembers(input.guildJsons, input.userId),
    merged_presences: { guilds: input.guildJsons.map(() => []), friends: [] },
    read_state: { entries: [], partial: false, version: 0 },
    user_guild_settings: { entries: [], partial: false, version: 0 },
    connected_accounts: [],
    experiments: [],
    guild_experiments: [],
    country_code: 'US',
    friend_suggestion_count: 0,
    analytics_token: '',
    consents: { personalization: { consented: false } },
    tutorial: null,
    api_code_version: 0,
  });
  const head = JSON.stringify(common);
  return `${head.slice(0, -1)},"guilds":[${input.guildJsons.join(',')}]}`;
}

/** The status in Identify.presence, 'online' when absent. */
export function presenceStatus(presenceJson: string): string {
  if (!presenceJson) return 'online';
  const presence = JSON.parse(presenceJson) as { status?: unknown };
  return typeof presence.status === 'string' ? presence.status : 'online';
}
