import Koa from 'koa';
import { Router } from '@koa/router';
import type { EdgeDeps, EdgeState } from './EdgeDeps.js';
import { BadRequestError } from '../domain/errors.js';
import { tracingOn } from '../tracing/traceScope.js';
import { clientIp } from './clientIp.js';
import { credentialAttempts } from './credentialAttempts.js';
import { errorMiddleware } from './errorMiddleware.js';
import { hotRoutes } from './hotRoutes.js';
import { httpMetrics, labelRoute, metricsRoute } from './httpMetrics.js';
import { httpTracing } from './httpTracing.js';
import { readBody } from './readBody.js';
import { rateLimitMiddleware } from './rateLimitMiddleware.js';
import { attachmentRoutes } from './routes/attachmentRoutes.js';
import { imageRoutes } from './routes/imageRoutes.js';
import { wellKnownRoutes } from './routes/wellKnownRoutes.js';
import { defaultAvatarRoutes } from './routes/defaultAvatarRoutes.js';
import { ROUTE_MODULES } from './routes/index.js';

/**
 * `/api/v6` .. `/api/v10` all serve the same routes as `/api` (Spacebar mounts v6..v10 too): the
 * version segment is dropped before routing, so one router matches each request once.
 */
const VERSIONED = /^\/api\/v(\d+)(?=\/|$)/;

/** Where orchestrators and clients look for liveness (Spacebar's client polls /api/v9/-/healthz). */
const HEALTH_PATH = /^(\/api(\/v\d+)?)?(\/-)?\/(health|healthz|readyz)$/;

/**
 * Drops the `/v{N}` of `/api/v{N}/...` (`cut`: the length of `/api/v{N}`). Koa's path setter parses the URL and
 * formats it again (1% of a message POST's CPU); when the path is the URL's own prefix (nothing in it was escaped
 * by parsing, no fragment) the URL is cut directly, which gives the same path and query.
 */
function withoutVersion(ctx: Koa.Context, cut: number): void {
  const { url, path } = ctx;
  if (url.startsWith(path) && !url.includes('#')) ctx.url = `/api${url.slice(cut)}`;
  else ctx.path = `/api${path.slice(cut)}`;
}

/**
 * A CORS preflight's answer. `*` allows any header but Authorization, which the Fetch standard requires by name
 * (Firefox and Safari hold to it), so it is named; browsers keep the answer up to Max-Age (Chromium caps it at 2 h).
 */
function answerPreflight(ctx: Koa.Context): void {
  ctx.set('Access-Control-Allow-Headers', 'Authorization, *');
  ctx.set('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
  ctx.set('Access-Control-Max-Age', '7200');
  ctx.status = 204;
}

/** Builds the Koa app: error mapping first, CORS, body reading, rate limits, then one router per resource. */
export function createHttpApp(deps: EdgeDeps): Koa<EdgeState> {
  const app = new Koa<EdgeState>();
  // X-Forwarded-Host/-Proto are believed only when the operator runs Chorus behind proxies it named.
  app.proxy = deps.http.trustedProxies.length > 0;
  if (deps.metrics) app.use(httpMetrics(deps.metrics.metrics)); // first: it sees the status errors were mapped to
  if (tracingOn()) app.use(httpTracing()); // absent while tracing is off: requests pay nothing for it
  app.use(errorMiddleware(deps.log));
  app.use(clientIp(deps.http.trustedProxies));
  // The middleware that only look at a request before passing it on return next()'s promise rather than awaiting
  // it: the same outcome (koa-compose turns a throw into a rejection), without an async function's promise and
  // resumption per layer on every request.
  app.use((ctx, next) => {
    // Browser clients (Spacebar's and Jank's web clients) call from another origin. Every answer names the
    // origin and exposes its headers (the rate-limit ones); what may be sent is the preflight's business alone.
    ctx.set('Access-Control-Allow-Origin', ctx.get('origin') || '*');
    ctx.set('Access-Control-Expose-Headers', '*');
    if (ctx.method === 'OPTIONS') {
      answerPreflight(ctx);
      return Promise.resolve();
    }
    // Routes are declared without a trailing slash; the spec lists most paths with one.
    if (ctx.path.length > 1 && ctx.path.endsWith('/')) ctx.path = ctx.path.slice(0, -1);
    return next();
  });
  app.use((ctx, next) => {
    // Health answers without auth or rate limits, for load balancers and orchestrators.
    if (!HEALTH_PATH.test(ctx.path)) return next();
    labelRoute(ctx, '/health'); // one series for every health path, apart from unmatched requests
    return deps.health().then((report) => {
      ctx.status = report.status === 'ok' ? 200 : 503;
      ctx.body = report;
    });
  });
  if (deps.metrics) app.use(metricsRoute(deps.metrics));
  app.use(readBody(deps.http.maxBodyBytes, deps.http.maxUploadBytes));
  app.use(rateLimitMiddleware(deps));
  app.use((ctx, next) => {
    const version = VERSIONED.exec(ctx.path)?.[1];
    if (version !== undefined) {
      // Discord: v3..v5 are discontinued (400 50041); v6..v10 are served.
      if (Number(version) < 6 || Number(version) > 10) throw new BadRequestError('Invalid API version', 50_041);
      withoutVersion(ctx, version.length + 6);
    }
    return next();
  });
  app.use(credentialAttempts(deps));
  app.use(hotRoutes(deps)); // message sends and pages, without the router's walk over every route
  const api = new Router<EdgeState>({ prefix: '/api' });
  for (const mount of ROUTE_MODULES) mount(api, deps);
  app.use(api.routes());
  // Attachment and image files live at the root, where Discord's CDN paths put them; so does discovery.
  const files = new Router<EdgeState>();
  attachmentRoutes(files, deps);
  imageRoutes(files, deps);
  wellKnownRoutes(files, deps);
  defaultAvatarRoutes(files);
  app.use(files.routes());
  return app;
}
