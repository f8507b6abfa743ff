import type { Middleware } from 'koa';
import type { EdgeContext, EdgeDeps, EdgeState } from './EdgeDeps.js';
import { labelRoute } from './httpMetrics.js';
import { CHANNEL_MESSAGES, channelMessagesRoutes } from './routes/messageRoutes.js';

/** The hot path, exactly as the API router spells it once the version segment is dropped (digits only). */
const CHANNEL_MESSAGES_PATH = /^\/api\/channels\/(\d+)\/messages$/;
const ROUTE_LABEL = `/api${CHANNEL_MESSAGES}`;

/**
 * Sending a message and reading a page of them, taken before the API router: the router tests a request
 * against each of its ~220 routes (every one's regular expression, then a middleware chain built for the
 * match), which this does with one expression. The handlers are the router's own (messageRoutes.ts), the
 * route label is the one the router would set, and only a request the router would give to these handlers
 * is taken (they are the only routes matching such a path); anything else goes on to the router.
 */
export function hotRoutes(deps: EdgeDeps): Middleware<EdgeState> {
  const { list, create } = channelMessagesRoutes(deps);
  // Returns the handler's (or next()'s) promise rather than awaiting it: no async layer of its own per request.
  return (ctx, next) => {
    const handler = ctx.method === 'POST' ? create : ctx.method === 'GET' ? list : undefined;
    const channelId = handler === undefined ? undefined : CHANNEL_MESSAGES_PATH.exec(ctx.path)?.[1];
    if (handler === undefined || channelId === undefined) return next();
    labelRoute(ctx, ROUTE_LABEL);
    (ctx as EdgeContext).params = { channel_id: channelId };
    return handler(ctx as EdgeContext);
  };
}
