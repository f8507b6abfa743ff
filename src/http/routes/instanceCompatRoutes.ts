import { randomUUID } from 'node:crypto';
import type { Router } from '@koa/router';
import { ActorKind } from '../../../cluster/ActorSystem.js';
import { UnknownEntityError } from '../../domain/errors.js';
import { UNCOUNTED } from '../../domain/InstanceCounter.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { requireCaller, sendObject, snowflakeParam, validBody } from '../routeKit.js';
import { askGuild } from './guildRouteKit.js';
import { refuseBots } from './userRouteKit.js';

/** The one voice region an instance offers (the same list as GET /guilds/{id}/regions). */
const VOICE_REGIONS = [{ id: 'local', name: 'Local', optimal: true, deprecated: false, custom: false }];

/** An empty Statuspage document: no maintenance is ever scheduled through this API. */
const NO_MAINTENANCE = {
  page: { id: 'chorus', name: 'Chorus', url: '', time_zone: 'Etc/UTC', updated_at: new Date(0).toISOString() },
  scheduled_maintenances: [],
};

/** Signed-in listings Chorus has nothing for: the shapes clients expect, empty, so they do not fail on a 404. */
const EMPTY_LISTINGS: Readonly<Record<string, unknown>> = {
  '/teams': [],
  '/stage-instances': [],
  '/sticker-packs': { sticker_packs: [] },
  '/outbound-promotions': [],
  // Chorus issues no OAuth2 access tokens (only the bot-authorization flow), so none are listed.
  '/oauth2/tokens': [],
  '/voice/regions': VOICE_REGIONS,
  '/scheduled-maintenances/upcoming_json/scheduled-maintenances/upcoming.json': NO_MAINTENANCE,
  '/store/published-listings/skus/:sku_id/subscription-plans': [],
  '/store/published-listings/applications/:application_id/subscription-plans': [],
};

/** Discord's partner-program requirements, all met: nothing on a self-hosted instance gates on them. */
function partnerRequirements(guildId: string): Record<string, unknown> {
  return {
    guild_id: guildId,
    safe_environment: true,
    healthy: true,
    health_score_pending: false,
    size: true,
    nsfw_properties: {},
    protected: true,
    sufficient: true,
    sufficient_without_grace_period: true,
    valid_rules_channel: true,
    retention_healthy: true,
    engagement_healthy: true,
    age: true,
    minimum_age: 0,
    health_score: {
      avg_nonnew_participators: 0,
      avg_nonnew_communicators: 0,
      num_intentful_joiners: 0,
      perc_ret_w1_intentful: 0,
    },
    minimum_size: 0,
  };
}

/**
 * Instance routes clients call besides the core API: update checks and telemetry sinks, experiments
 * (public, SB issue #1623), and listings with nothing in them. Policy documents: instancePolicyRoutes.
 */
export function instanceCompatRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  const startedAt = new Date().toISOString();
  router.get('/updates', (ctx: EdgeContext) => {
    // Desktop clients ask for the newest build; this instance distributes none, so the answer names no download.
    sendObject(ctx, { name: '0.0.0', pub_date: startedAt, url: null, notes: null });
  });
  // Telemetry sinks: accepted and dropped.
  for (const path of ['/track', '/science']) {
    router.post(path, (ctx: EdgeContext) => {
      ctx.status = 204;
    });
  }
  // Statuspage's public document, which clients poll without a token.
  router.get('/scheduled-maintenances/upcoming.json', (ctx: EdgeContext) => {
    sendObject(ctx, NO_MAINTENANCE);
  });
  experimentRoutes(router);
  signedInRoutes(router, deps);
}

/** GET /experiments and /apex/experiments: public (real clients call them before login); no experiments run. */
function experimentRoutes(router: Router<EdgeState>): void {
  router.get('/experiments', (ctx: EdgeContext) => {
    const body: Record<string, unknown> = { assignments: [], guild_experiments: [] };
    if (!ctx.get('authorization')) body['fingerprint'] = randomUUID();
    sendObject(ctx, body);
  });
  router.get('/apex/experiments', (ctx: EdgeContext) => {
    sendObject(ctx, { assignments: [] });
  });
}

function signedInRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  for (const [path, body] of Object.entries(EMPTY_LISTINGS)) {
    router.get(path, async (ctx: EdgeContext) => {
      await requireCaller(ctx, deps);
      for (const name of Object.keys(ctx.params)) snowflakeParam(ctx, name);
      sendObject(ctx, body);
    });
  }
  // No SKUs or store listings exist on an instance: Discord's own "unknown" answers.
  router.get('/store/published-listings/skus/:sku_id', async (ctx: EdgeContext) => {
    await requireCaller(ctx, deps);
    snowflakeParam(ctx, 'sku_id');
    throw new UnknownEntityError('sku');
  });
  router.get('/store/published-listings/applications/:application_id', async (ctx: EdgeContext) => {
    await requireCaller(ctx, deps);
    snowflakeParam(ctx, 'application_id');
    throw new UnknownEntityError('store listing');
  });
  // Spacebar's shape: SQLite counts exactly (triggers), Cassandra closely (counters; CassandraInstanceCounter).
  router.get('/policies/stats', async (ctx: EdgeContext) => {
    await requireCaller(ctx, deps);
    sendObject(ctx, { counts: (await deps.counts?.counts()) ?? UNCOUNTED });
  });
  router.get('/partners/:guild_id/requirements', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    const guildId = snowflakeParam(ctx, 'guild_id');
    // Members only, like every other guild read (404 10004 otherwise).
    await askGuild(deps, guildId, {
      $case: 'checkPermission',
      checkPermission: { caller, permissions: '0', channelId: '', any: false },
    });
    sendObject(ctx, partnerRequirements(guildId));
  });
  // User clients mark one channel read this way (AckBulkSchema allows exactly one read state).
  router.post('/read-states/ack-bulk', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    refuseBots(caller); // read states are kept for people only
    const body = validBody(ctx, 'AckBulkSchema');
    for (const state of body.read_states) {
      await deps.system.ask(ActorKind.Channel, state.channel_id, {
        command: {
          $case: 'acknowledge',
          acknowledge: { caller, body: JSON.stringify({ message_id: state.message_id }) },
        },
      });
    }
    ctx.status = 204;
  });
}
