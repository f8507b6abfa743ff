import type { Router } from '@koa/router';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { gatewayUrlOf, originOf } from '../publicOrigin.js';
import { sendObject } from '../routeKit.js';

/** The API version clients default to (Spacebar's clients use 9, as discovery says). */
const DEFAULT_API_VERSION = '9';

/** Limits a client may show or respect: the values the actors enforce, and the configured upload size. */
function instanceLimits(deps: EdgeDeps) {
  return {
    user: { maxGuilds: 100, maxUsername: 32, maxFriends: 1000, maxBio: 1024 },
    guild: { maxRoles: 250, maxEmojis: 500, maxStickers: 60, maxMembers: 500_000, maxChannels: 500 },
    message: { maxCharacters: 2000, maxReactions: 20, maxAttachmentSize: deps.http.maxUploadBytes, maxBulkDelete: 100 },
    channel: { maxPins: 250, maxTopic: 1024, maxWebhooks: 15 },
    rate: { enabled: true, global: { count: deps.http.globalRateLimitPerSecond, window: 1 } },
  };
}

/**
 * The public instance configuration Spacebar serves at /policies/instance/config (flat keys, read by web
 * clients' login and registration pages), from the same limits and from what registration here asks for.
 */
function publicInstanceConfig(deps: EdgeDeps): Record<string, unknown> {
  const limits = instanceLimits(deps);
  // Registration needs only a username and consent (RegisterSchema); it is always open, invites optional.
  const dateOfBirthRequired = false;
  return {
    limits_user_maxGuilds: limits.user.maxGuilds,
    limits_user_maxBio: limits.user.maxBio,
    limits_guild_maxEmojis: limits.guild.maxEmojis,
    limits_guild_maxRoles: limits.guild.maxRoles,
    limits_message_maxCharacters: limits.message.maxCharacters,
    limits_message_maxAttachmentSize: limits.message.maxAttachmentSize,
    // Chorus fetches nothing for embeds, so no download limit applies.
    limits_message_maxEmbedDownloadSize: 0,
    limits_channel_maxWebhooks: limits.channel.maxWebhooks,
    register_dateOfBirth_required: dateOfBirthRequired,
    // Spacebar's server spells this key with a trailing "c"; its clients read the other spelling.
    register_dateOfBirth_requiredc: dateOfBirthRequired,
    register_password_required: false,
    register_disabled: false,
    register_requireInvite: false,
    register_allowNewRegistration: true,
    register_allowMultipleAccounts: true,
    guild_autoJoin_canLeave: true,
    guild_autoJoin_guilds_x: [],
    register_email_required: false,
    // No mail is sent, so there is no password reset.
    can_recover_account: false,
  };
}

/** The instance as CHORUS_INSTANCE_* describe it, unset fields null (for /policies/instance and /ping). */
export function instanceInfo(deps: EdgeDeps): {
  name: string;
  description: string | null;
  frontPage: string | null;
  tosPage: string | null;
  correspondenceEmail: string | null;
} {
  const instance = deps.instance;
  return {
    name: instance?.name ?? 'Chorus',
    description: instance?.description || null,
    frontPage: instance?.frontPage || null,
    tosPage: instance?.tosPage || null,
    correspondenceEmail: instance?.correspondenceEmail || null,
  };
}

/** Public instance policies (Spacebar's /policies/instance documents); every URL has the client's origin. */
export function instancePolicyRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get('/policies/instance', (ctx: EdgeContext) => {
    const { name, description, frontPage, tosPage, correspondenceEmail } = instanceInfo(deps);
    sendObject(ctx, {
      instanceName: name,
      instanceDescription: description,
      frontPage,
      tosPage,
      correspondenceEmail,
      correspondenceUserID: null,
      image: null,
      instanceId: null,
    });
  });
  router.get('/policies/instance/limits', (ctx: EdgeContext) => {
    sendObject(ctx, instanceLimits(deps));
  });
  router.get('/policies/instance/config', (ctx: EdgeContext) => {
    sendObject(ctx, publicInstanceConfig(deps));
  });
  router.get('/policies/instance/domains', (ctx: EdgeContext) => {
    const origin = originOf(ctx, deps);
    sendObject(ctx, {
      cdn: origin,
      gateway: gatewayUrlOf(ctx, deps),
      defaultApiVersion: DEFAULT_API_VERSION,
      apiEndpoint: `${origin}/api`,
    });
  });
}
