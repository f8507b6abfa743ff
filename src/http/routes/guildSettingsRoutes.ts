import type { Router } from '@koa/router';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';
import { Permission } from '../../domain/permissions.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { bodyFor, requireCaller, sendObject, sendReply, snowflakeParam } from '../routeKit.js';
import { askGuild, guildRoute } from './guildRouteKit.js';

/** The one voice region an instance offers. */
const REGIONS = [{ id: 'local', name: 'Local', optimal: true, deprecated: false, custom: false }];

/** Passes when the caller is a member holding `permissions` (404 / 403 otherwise). */
async function checkPermission(deps: EdgeDeps, caller: Caller, guildId: string, permissions: bigint): Promise<void> {
  await askGuild(deps, guildId, {
    $case: 'checkPermission',
    checkPermission: { caller, permissions: permissions.toString(), channelId: '', any: false },
  });
}

/** A members-only route whose answer does not come from the guild (static lists Chorus has nothing for). */
function staticRoute(deps: EdgeDeps, permissions: bigint, answer: () => unknown) {
  return async (ctx: EdgeContext): Promise<void> => {
    const caller = await requireCaller(ctx, deps);
    await checkPermission(deps, caller, snowflakeParam(ctx, 'guild_id'), permissions);
    sendObject(ctx, answer());
  };
}

/** Guild settings: widget, welcome screen, vanity URL, invites, and listings Chorus keeps empty. */
export function guildSettingsRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  const request = (caller: Caller) => ({ caller, targetId: '', withCounts: false });
  router.get(
    '/guilds/:guild_id/widget',
    guildRoute(deps, (_ctx, caller) => ({ $case: 'getWidget', getWidget: request(caller) })),
  );
  router.patch(
    '/guilds/:guild_id/widget',
    guildRoute(
      deps,
      (ctx, caller) => ({ $case: 'updateWidget', updateWidget: { caller, body: bodyFor(ctx, 'WidgetModifySchema') } }),
      { needs: Permission.MANAGE_GUILD },
    ),
  );
  // The spec lists it under "Guilds (all B)": any signed-in user (member or not), 401 without a token.
  router.get('/guilds/:guild_id/widget.json', async (ctx: EdgeContext) => {
    await requireCaller(ctx, deps);
    const guildId = snowflakeParam(ctx, 'guild_id');
    sendReply(
      ctx,
      await askGuild(deps, guildId, { $case: 'getWidgetJson', getWidgetJson: { targetId: '', withCounts: false } }),
    );
  });
  router.get(
    '/guilds/:guild_id/welcome-screen',
    guildRoute(deps, (_ctx, caller) => ({ $case: 'getWelcomeScreen', getWelcomeScreen: request(caller) })),
  );
  router.patch(
    '/guilds/:guild_id/welcome-screen',
    guildRoute(
      deps,
      (ctx, caller) => ({
        $case: 'updateWelcomeScreen',
        updateWelcomeScreen: { caller, body: bodyFor(ctx, 'GuildUpdateWelcomeScreenSchema') },
      }),
      { needs: Permission.MANAGE_GUILD },
    ),
  );
  router.get(
    '/guilds/:guild_id/vanity-url',
    guildRoute(deps, (_ctx, caller) => ({ $case: 'getVanityUrl', getVanityUrl: request(caller) })),
  );
  router.patch(
    '/guilds/:guild_id/vanity-url',
    guildRoute(
      deps,
      (ctx, caller) => ({
        $case: 'updateVanityUrl',
        updateVanityUrl: { caller, body: bodyFor(ctx, 'VanityUrlSchema') },
      }),
      { needs: Permission.MANAGE_GUILD },
    ),
  );
  router.get(
    '/guilds/:guild_id/invites',
    guildRoute(deps, (_ctx, caller) => ({ $case: 'listInvites', listInvites: request(caller) })),
  );
  router.get(
    '/guilds/:guild_id/regions',
    staticRoute(deps, 0n, () => REGIONS),
  );
  router.get(
    '/guilds/:guild_id/integrations',
    staticRoute(deps, 0n, () => []),
  );
  router.get(
    '/guilds/:guild_id/premium/subscriptions',
    staticRoute(deps, 0n, () => []),
  );
  router.get(
    '/guilds/:guild_id/member-verification',
    staticRoute(deps, 0n, () => ({ version: new Date(0).toISOString(), form_fields: [], description: null })),
  );
}
