import type { Router } from '@koa/router';
import { Right } from '../../domain/rights.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { bodyFor, requireCaller, requireRight, sendReply } from '../routeKit.js';
import { askGuild, flagQuery, guildRoute, publicUserJson } from './guildRouteKit.js';

/** Guilds: create, get, modify, delete, and the guild's channel list (create, reorder). */
export function guildRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.post('/guilds', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    requireRight(caller, Right.CREATE_GUILDS, 'CREATE_GUILDS');
    const body = bodyFor(ctx, 'GuildCreateSchema');
    const ownerUserJson = await publicUserJson(deps, caller, caller.userId);
    const guildId = deps.ids.next();
    const reply = await askGuild(deps, guildId, { $case: 'createGuild', createGuild: { caller, body, ownerUserJson } });
    sendReply(ctx, reply, 201);
  });
  router.get(
    '/guilds/:guild_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'getGuild',
      getGuild: { caller, targetId: '', withCounts: flagQuery(ctx, 'with_counts') },
    })),
  );
  router.patch(
    '/guilds/:guild_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'updateGuild',
      updateGuild: { caller, body: bodyFor(ctx, 'GuildUpdateSchema') },
    })),
  );
  // Older clients delete with POST /guilds/{id}/delete.
  for (const [method, path] of [
    ['delete', '/guilds/:guild_id'],
    ['post', '/guilds/:guild_id/delete'],
  ] as const) {
    router[method](
      path,
      guildRoute(deps, (_ctx, caller) => ({
        $case: 'deleteGuild',
        deleteGuild: { caller, targetId: '', withCounts: false },
      })),
    );
  }
  router.get(
    '/guilds/:guild_id/channels',
    guildRoute(deps, (_ctx, caller) => ({
      $case: 'listChannels',
      listChannels: { caller, targetId: '', withCounts: false },
    })),
  );
  router.post(
    '/guilds/:guild_id/channels',
    guildRoute(
      deps,
      (ctx, caller) => ({
        $case: 'createChannel',
        createChannel: { caller, body: bodyFor(ctx, 'ChannelCreateSchema') },
      }),
      201,
    ),
  );
  router.patch(
    '/guilds/:guild_id/channels',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'reorderChannels',
      reorderChannels: { caller, body: bodyFor(ctx, 'ChannelReorderSchema') },
    })),
  );
}
