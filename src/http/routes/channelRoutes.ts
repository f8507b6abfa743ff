import type { Router } from '@koa/router';
import { ActorKind } from '../../../actors/runtime/ActorKind.js';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';
import { ForbiddenError } from '../../domain/errors.js';
import { Right } from '../../domain/rights.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { bodyFor, requireCaller, requireRight, sendReply, snowflakeParam } from '../routeKit.js';
import { askGuild, locateChannel, type GuildCommandCase } from './guildRouteKit.js';

/** Builds the Guild command for a route on a guild channel. */
type ChannelGuildCommand = (ctx: EdgeContext, caller: Caller, channelId: string) => GuildCommandCase;

/**
 * A `/channels/{channel_id}/...` route served by the channel's Guild (which owns channel records and
 * overwrites): the channel actor says where the channel lives, then the Guild answers. DMs have no
 * guild: `dm` answers for them (50003 by default).
 */
function guildChannelRoute(
  deps: EdgeDeps,
  build: ChannelGuildCommand,
  status = 200,
  dm?: (ctx: EdgeContext, caller: Caller, channelId: string) => Promise<void>,
) {
  return async (ctx: EdgeContext): Promise<void> => {
    const caller = await requireCaller(ctx, deps);
    const channelId = snowflakeParam(ctx, 'channel_id');
    const { guildId } = await locateChannel(deps, caller, channelId);
    if (guildId === '') {
      if (!dm) throw new ForbiddenError('Cannot execute action on a DM channel', 50_003);
      await dm(ctx, caller, channelId);
      return;
    }
    sendReply(ctx, await askGuild(deps, guildId, build(ctx, caller, channelId)), status);
  };
}

/** Asks the Channel actor for the channel as the caller sees it (it checks access for DMs and guilds). */
async function channelAsSeen(deps: EdgeDeps, ctx: EdgeContext, caller: Caller, channelId: string): Promise<void> {
  const reply = await deps.system.ask(ActorKind.Channel, channelId, {
    command: { $case: 'getChannel', getChannel: { caller, body: '', authorJson: '' } },
  });
  sendReply(ctx, reply);
}

/** Channels: get, modify, delete; permission overwrites; the channel's invites. */
export function channelRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get('/channels/:channel_id', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    await channelAsSeen(deps, ctx, caller, snowflakeParam(ctx, 'channel_id'));
  });
  router.patch(
    '/channels/:channel_id',
    guildChannelRoute(deps, (ctx, caller, channelId) => ({
      $case: 'updateChannel',
      updateChannel: { caller, channelId, body: bodyFor(ctx, 'ChannelModifySchema') },
    })),
  );
  // Closing a DM only hides it for the caller on Discord; the channel itself stays (as here).
  router.delete(
    '/channels/:channel_id',
    guildChannelRoute(
      deps,
      (_ctx, caller, channelId) => ({ $case: 'deleteChannel', deleteChannel: { caller, channelId, body: '' } }),
      200,
      (ctx, caller, channelId) => channelAsSeen(deps, ctx, caller, channelId),
    ),
  );
  router.put(
    '/channels/:channel_id/permissions/:overwrite_id',
    guildChannelRoute(deps, (ctx, caller, channelId) => ({
      $case: 'putOverwrite',
      putOverwrite: {
        caller,
        channelId,
        overwriteId: snowflakeParam(ctx, 'overwrite_id'),
        body: bodyFor(ctx, 'ChannelPermissionOverwriteSchema'),
      },
    })),
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
    guildChannelRoute(deps, (ctx, caller, channelId) => {
      requireRight(caller, Right.CREATE_INVITES, 'CREATE_INVITES');
      return { $case: 'createInvite', createInvite: { caller, channelId, body: bodyFor(ctx, 'InviteCreateSchema') } };
    }),
  );
}
