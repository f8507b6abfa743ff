import type { Router } from '@koa/router';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { gatewayUrlOf, originOf } from '../publicOrigin.js';
import { sendObject } from '../routeKit.js';

/** The API versions Chorus serves under /api/v{n}; clients default to 9, as Spacebar's do. */
const API_VERSIONS = { default: '9', active: ['6', '7', '8', '9', '10'] };

/**
 * Instance discovery for Spacebar clients, at the root: `/.well-known/spacebar` (v1: where the API is;
 * the client then reads /api/policies/instance/domains) and `/.well-known/spacebar/client` (v2: API,
 * CDN and gateway in one document). Chorus is its own CDN and serves the gateway on the same port, so
 * every URL has the origin the client asked by (or CHORUS_PUBLIC_URL).
 */
export function wellKnownRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  const origin = (ctx: EdgeContext): string => originOf(ctx, deps);
  router.get('/.well-known/spacebar', (ctx: EdgeContext) => {
    sendObject(ctx, { api: `${origin(ctx)}/api/v${API_VERSIONS.default}` });
  });
  router.get('/.well-known/spacebar/client', (ctx: EdgeContext) => {
    sendObject(ctx, {
      api: { baseUrl: origin(ctx), apiVersions: API_VERSIONS },
      cdn: { baseUrl: origin(ctx) },
      gateway: { baseUrl: gatewayUrlOf(ctx, deps), encoding: ['json'], compression: ['zlib-stream', null] },
    });
  });
}
