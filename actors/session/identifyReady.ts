import type { Identify } from '../../proto/gen/chorus/v1/session.js';
import type { Authenticated } from './authenticate.js';
import { readyPayloads, type ReadyPayloads } from './readyPayload.js';
import type { Identity } from './sessionRecord.js';
import type { UserExtras } from './userExtras.js';

/** What an identified session adds to its Identify and authentication to make READY. */
export interface IdentifyReadyParts {
  readonly sessionId: string;
  /** READY.resume_gateway_url when the edge did not give the one the client used. */
  readonly gatewayUrl: string;
  readonly identity: Identity;
  /** The guilds the session subscribed to, in READY order, with their GUILD_CREATE payloads. */
  readonly guilds: { readonly guildIds: readonly string[]; readonly guildJsons: readonly string[] };
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
    ...parts.guilds,
    ...parts.extras,
    status: parts.status,
    propertiesJson: command.propertiesJson,
    capabilities: identity.capabilities,
  });
}
