import type { Router } from '@koa/router';
import { Right } from '../../domain/rights.js';
import { SESSION_START_WINDOW_MS, sessionStartWindow } from '../../gateway/sessionStartLimits.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { gatewayUrlOf } from '../publicOrigin.js';
import { instanceInfo } from './instancePolicyRoutes.js';
import { requireCaller, requireRight, sendObject } from '../routeKit.js';

/** Instance routes: gateway discovery, ping, policies, and the compatibility listings clients poll. */
export function instanceRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get('/gateway', (ctx: EdgeContext) => {
    sendObject(ctx, { url: gatewayUrlOf(ctx, deps) });
  });
  router.get('/gateway/bot', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    // Read, not counted: the gateway counts each Identify it admits in the same window (SessionStarter).
    const [budget] = await deps.limiter.peek([sessionStartWindow(caller.userId, deps.gateway)]);
    sendObject(ctx, {
      url: gatewayUrlOf(ctx, deps),
      shards: 1,
      session_start_limit: {
        total: deps.gateway.sessionStartLimit,
        remaining: budget?.remaining ?? deps.gateway.sessionStartLimit,
        reset_after: budget?.resetAfterMs ?? SESSION_START_WINDOW_MS,
        max_concurrency: deps.gateway.maxConcurrency,
      },
    });
  });
  router.get('/ping', (ctx: EdgeContext) => {
    // Spacebar's shape: web clients show the instance it names (CHORUS_INSTANCE_*, as /policies/instance).
    sendObject(ctx, {
      ping: 'pong!',
      instance: { id: null, ...instanceInfo(deps), image: null, correspondenceUserID: null },
    });
  });
  router.post('/stop', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    requireRight(caller, Right.OPERATOR, 'OPERATOR');
    ctx.status = 204;
    setImmediate(deps.requestStop);
  });
}
