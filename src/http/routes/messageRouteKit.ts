import { ActorKind } from '../../../cluster/ActorSystem.js';
import type { ChannelCommand, ChannelReply } from '../../../proto/gen/chorus/v1/channel.js';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';
import type { EdgeContext, EdgeDeps } from '../EdgeDeps.js';
import { requireCaller, sendReply, snowflakeParam } from '../routeKit.js';
import type { RouteOptions } from './guildRouteKit.js';
import { channelProbe, permissionFirst } from './permissionFirst.js';

/** One Channel actor command, built from the request and the authenticated caller. */
export type ChannelCommandFor = (ctx: EdgeContext, caller: Caller) => NonNullable<ChannelCommand['command']>;

/** Asks the Channel actor of the route's `{channel_id}`. */
export function askChannel(
  deps: EdgeDeps,
  channelId: string,
  command: NonNullable<ChannelCommand['command']>,
): Promise<ChannelReply> {
  return deps.system.ask(ActorKind.Channel, channelId, { command });
}

/**
 * A route handler that authenticates, asks the Channel actor of `{channel_id}` and writes its reply
 * (JSON with `status`, or 204 when the actor answers empty). The command is built after the caller
 * is known, so a bad body from an anonymous client still answers 401 first; with `needs`, a caller
 * lacking it in the channel gets 403/404 before a 400.
 */
export function channelRoute(deps: EdgeDeps, build: ChannelCommandFor, options: RouteOptions = {}) {
  const handler = async (ctx: EdgeContext): Promise<void> => {
    const caller = await requireCaller(ctx, deps);
    const channelId = snowflakeParam(ctx, 'channel_id');
    sendReply(ctx, await askChannel(deps, channelId, build(ctx, caller)), options.status);
  };
  return options.needs === undefined ? handler : permissionFirst(channelProbe(deps, options.needs), handler);
}

/** A query parameter as one string ('' when absent). */
export function stringQuery(ctx: EdgeContext, name: string): string {
  const raw = ctx.query[name];
  return (Array.isArray(raw) ? raw[0] : raw) ?? '';
}
