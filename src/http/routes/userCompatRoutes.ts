import type { Router } from '@koa/router';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { requireCaller, sendObject } from '../routeKit.js';

/**
 * Listings user clients poll for features this instance has no data for (billing, connections,
 * affinities, ...): the shapes clients expect, empty, so they do not fail on a 404.
 */
const EMPTY_LISTINGS: Readonly<Record<string, unknown>> = {
  '/users/@me/library': [],
  '/users/@me/guilds/premium/subscription-slots': [],
  '/users/@me/entitlements/gifts': [],
  '/users/@me/connections': [],
  '/users/@me/billing/subscriptions': [],
  '/users/@me/billing/payment-sources': [],
  '/users/@me/billing/country-code': { country_code: 'US' },
  '/users/@me/applications/:app_id/entitlements': [],
  '/users/@me/affinities/users': { user_affinities: [], inverse_user_affinities: [] },
  '/users/@me/affinities/guilds': { guild_affinities: [] },
  '/users/@me/activities/statistics/applications': [],
  '/users/@me/email-settings': {
    initialized: true,
    categories: {
      social: true,
      communication: true,
      tips: false,
      updates_and_announcements: false,
      recommendations_and_events: false,
      family_center_digest: false,
    },
  },
};

/** Compatibility listings, and the device registration push clients send (accepted, nothing stored). */
export function userCompatRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  for (const [path, body] of Object.entries(EMPTY_LISTINGS)) {
    router.get(path, async (ctx: EdgeContext) => {
      await requireCaller(ctx, deps);
      sendObject(ctx, body);
    });
  }
  router.post('/users/@me/devices', async (ctx: EdgeContext) => {
    await requireCaller(ctx, deps);
    ctx.status = 204;
  });
}
