import type { Router } from '@koa/router';
import { Permission } from '../../domain/permissions.js';
import { Right } from '../../domain/rights.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { askWithImages, storeImages, type ImageFields } from '../imageUploads.js';
import { bodyFor, requireCaller, requireRight, sendReply, snowflakeParam, validBody } from '../routeKit.js';
import { askGuild, flagQuery, guildRoute, publicUserJson } from './guildRouteKit.js';
import { guildProbe, permissionFirst } from './permissionFirst.js';

/** A guild's images, served at /icons/{guild_id}/{hash}.png, /banners/..., /splashes/..., /discovery-splashes/... */
const GUILD_IMAGES: ImageFields = {
  icon: 'icons',
  banner: 'banners',
  splash: 'splashes',
  discovery_splash: 'discovery-splashes',
};

/** Guilds: create, get, modify, delete, and the guild's channel list (create, reorder). */
export function guildRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.post('/guilds', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    requireRight(caller, Right.CREATE_GUILDS, 'CREATE_GUILDS');
    const form = validBody(ctx, 'GuildCreateSchema');
    const ownerUserJson = await publicUserJson(deps, caller, caller.userId);
    const guildId = deps.ids.next();
    const images = await storeImages(deps, form, guildId, GUILD_IMAGES);
    const reply = await askWithImages(deps, images.created, () =>
      askGuild(deps, guildId, { $case: 'createGuild', createGuild: { caller, body: images.body, ownerUserJson } }),
    );
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
    permissionFirst(guildProbe(deps, Permission.MANAGE_GUILD), async (ctx: EdgeContext) => {
      const caller = await requireCaller(ctx, deps);
      const guildId = snowflakeParam(ctx, 'guild_id');
      const images = await storeImages(deps, validBody(ctx, 'GuildUpdateSchema'), guildId, GUILD_IMAGES);
      const reply = await askWithImages(deps, images.created, () =>
        askGuild(deps, guildId, { $case: 'updateGuild', updateGuild: { caller, body: images.body } }),
      );
      sendReply(ctx, reply);
    }),
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
      { status: 201, needs: Permission.MANAGE_CHANNELS },
    ),
  );
  router.patch(
    '/guilds/:guild_id/channels',
    guildRoute(
      deps,
      (ctx, caller) => ({
        $case: 'reorderChannels',
        reorderChannels: { caller, body: bodyFor(ctx, 'ChannelReorderSchema') },
      }),
      { needs: Permission.MANAGE_CHANNELS },
    ),
  );
}
