import type { Identify } from '../../proto/gen/chorus/v1/session.js';
import type { Authenticated } from './authenticate.js';
import type { SubscribedGuild } from './guildQueries.js';
import { readyPayloads, type ReadyPayloads } from './readyPayload.js';
import type { Identity } from './sessionRecord.js';
import type { UserExtras } from './userExtras.js';

/** What an identified session adds to its Identify and authentication to make READY. */
export interface IdentifyReadyParts {
  readonly sessionId: string;
  /** READY.resume_gateway_url when the edge did not give the one the client used. */
  readonly gatewayUrl: string;
  readonly identity: Identity;
  /** The guilds the session subscribed to, in READY order, with their GUILD_CREATE payloads and own members. */
  readonly guilds: { readonly guildIds: readonly string[]; readonly subscribed: readonly SubscribedGuild[] };
  readonly extras: UserExtras;
  readonly status: string;
}

/** READY (and READY_SUPPLEMENTAL) for an Identify that authenticated as `auth`. */
export function identifyReady(command: Identify, auth: Authenticated, parts: IdentifyReadyParts): ReadyPayloads {
  const { identity } = parts;
  return readyPayloads({
    version: command.version,
    sessionId: parts.sessionId,
    resumeGatewayUrl: command.gatewayUrl || parts.gatewayUrl,
    userId: identity.userId,
    userJson: auth.userJson,
    bot: auth.caller.bot,
    applicationId: auth.applicationId || identity.userId,
    shard: command.shardCount > 0 ? [command.shardId, command.shardCount] : undefined,
    guildIds: parts.guilds.guildIds,
    guildJsons: parts.guilds.subscribed.map((guild) => guild.json),
    ownMemberJsons: parts.guilds.subscribed.map((guild) => guild.ownMemberJson),
    // Named one by one: keys after a spread in a literal take V8's slow path (a few µs per Identify).
    privateChannelsJson: parts.extras.privateChannelsJson,
    relationshipsJson: parts.extras.relationshipsJson,
    userSettingsJson: parts.extras.userSettingsJson,
    guildSettingsJson: parts.extras.guildSettingsJson,
    readStatesJson: parts.extras.readStatesJson,
    friendPresencesJson: parts.extras.friendPresencesJson,
    status: parts.status,
    propertiesJson: command.propertiesJson,
    capabilities: identity.capabilities,
  });
}
