import type { Router } from '@koa/router';
import { ActorKind } from '../../../cluster/ActorSystem.js';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';
import { ForbiddenError } from '../../domain/errors.js';
import { Permission } from '../../domain/permissions.js';
import { Right } from '../../domain/rights.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { bodyFor, requireCaller, requireRight, sendReply, snowflakeParam } from '../routeKit.js';
import { askGuild, locateChannel, type GuildCommandCase, type RouteOptions } from './guildRouteKit.js';
import { askChannel } from './messageRouteKit.js';
import { channelProbe, permissionFirst } from './permissionFirst.js';
import { refuseBots } from './userRouteKit.js';

/** Builds the Guild command for a route on a guild channel. */
type ChannelGuildCommand = (ctx: EdgeContext, caller: Caller, channelId: string) => GuildCommandCase;

/** Answers a guild-channel route for a DM or group DM (which has no guild). */
type DmAnswer = (ctx: EdgeContext, caller: Caller, channelId: string, type: number) => Promise<void>;

/**
 * A `/channels/{channel_id}/...` route served by the channel's Guild (which owns channel records and
 * overwrites): the channel actor says where the channel lives, then the Guild answers. DMs have no
 * guild: `dm` answers for them (50003 by default). With `needs` (in the channel), a caller lacking it
 * gets 403/404 before a 400.
 */
function guildChannelRoute(deps: EdgeDeps, build: ChannelGuildCommand, options: RouteOptions & { dm?: DmAnswer } = {}) {
  const handler = async (ctx: EdgeContext): Promise<void> => {
    const caller = await requireCaller(ctx, deps);
    const channelId = snowflakeParam(ctx, 'channel_id');
    const { guildId, type } = await locateChannel(deps, caller, channelId);
    if (guildId === '') {
      if (!options.dm) throw new ForbiddenError('Cannot execute action on a DM channel', 50_003);
      await options.dm(ctx, caller, channelId, type);
      return;
    }
    sendReply(ctx, await askGuild(deps, guildId, build(ctx, caller, channelId)), options.status);
  };
  return options.needs === undefined ? handler : permissionFirst(channelProbe(deps, options.needs), handler);
}

/** Asks the Channel actor for the channel as the caller sees it (it checks access for DMs and guilds). */
async function channelAsSeen(deps: EdgeDeps, ctx: EdgeContext, caller: Caller, channelId: string): Promise<void> {
  const reply = await deps.system.ask(ActorKind.Channel, channelId, {
    command: { $case: 'getChannel', getChannel: { caller, body: '' } },
  });
  sendReply(ctx, reply);
}

/** Group DM type (Discord 3): DELETE /channels/{id} means leaving it. */
const GROUP_DM_TYPE = 3;

/** Asks the Channel actor to remove `userId` from its group DM (it checks who may). */
function removeRecipient(deps: EdgeDeps, caller: Caller, channelId: string, userId: string) {
  return askChannel(deps, channelId, { $case: 'removeRecipient', removeRecipient: { caller, userId } });
}

/** Channels: get, modify, delete; permission overwrites; the channel's invites. */
export function channelRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get('/channels/:channel_id', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    await channelAsSeen(deps, ctx, caller, snowflakeParam(ctx, 'channel_id'));
  });
  router.patch(
    '/channels/:channel_id',
    guildChannelRoute(
      deps,
      (ctx, caller, channelId) => ({
        $case: 'updateChannel',
        updateChannel: { caller, channelId, body: bodyFor(ctx, 'ChannelModifySchema') },
      }),
      { needs: Permission.MANAGE_CHANNELS },
    ),
  );
  // Closing a 1:1 DM only hides it for the caller on Discord; the channel itself stays (as here).
  // Deleting a group DM is leaving it: the caller is removed and gets the channel as they saw it.
  router.delete(
    '/channels/:channel_id',
    guildChannelRoute(
      deps,
      (_ctx, caller, channelId) => ({ $case: 'deleteChannel', deleteChannel: { caller, channelId, body: '' } }),
      {
        dm: async (ctx, caller, channelId, type) => {
          if (type !== GROUP_DM_TYPE) return channelAsSeen(deps, ctx, caller, channelId);
          sendReply(ctx, await removeRecipient(deps, caller, channelId, caller.userId));
        },
      },
    ),
  );
  // Group DM recipients; the body's access_token / nick (OAuth2 adds) are ignored. Adding is for people.
  router.put('/channels/:channel_id/recipients/:user_id', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    refuseBots(caller);
    const [channelId, userId] = [snowflakeParam(ctx, 'channel_id'), snowflakeParam(ctx, 'user_id')];
    sendReply(ctx, await askChannel(deps, channelId, { $case: 'addRecipient', addRecipient: { caller, userId } }));
  });
  router.delete('/channels/:channel_id/recipients/:user_id', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    const [channelId, userId] = [snowflakeParam(ctx, 'channel_id'), snowflakeParam(ctx, 'user_id')];
    await removeRecipient(deps, caller, channelId, userId);
    ctx.status = 204;
  });
  router.put(
    '/channels/:channel_id/permissions/:overwrite_id',
    guildChannelRoute(
      deps,
      (ctx, caller, channelId) => ({
        $case: 'putOverwrite',
        putOverwrite: {
          caller,
          channelId,
          overwriteId: snowflakeParam(ctx, 'overwrite_id'),
          body: bodyFor(ctx, 'ChannelPermissionOverwriteSchema'),
        },
      }),
      { needs: Permission.MANAGE_ROLES },
    ),
  );
  router.delete(
    '/channels/:channel_id/permissions/:overwrite_id',
    guildChannelRoute(deps, (ctx, caller, channelId) => ({
      $case: 'deleteOverwrite',
      deleteOverwrite: { caller, channelId, overwriteId: snowflakeParam(ctx, 'overwrite_id'), body: '' },
    })),
  );
  router.get(
    '/channels/:channel_id/invites',
    guildChannelRoute(deps, (_ctx, caller, channelId) => ({
      $case: 'listChannelInvites',
      listChannelInvites: { caller, channelId, body: '' },
    })),
  );
  router.post(
    '/channels/:channel_id/invites',
    guildChannelRoute(
      deps,
      (ctx, caller, channelId) => {
        requireRight(caller, Right.CREATE_INVITES, 'CREATE_INVITES');
        return {
          $case: 'createInvite',
          createInvite: { caller, channelId, body: bodyFor(ctx, 'InviteCreateSchema') },
        };
      },
      { needs: Permission.CREATE_INSTANT_INVITE },
    ),
  );
}
