import type { Middleware } from 'koa';
import {
  LATENCY_BUCKETS_S,
  secondsSince,
  type CounterHandle,
  type HistogramHandle,
  type Metrics,
} from '../domain/Metrics.js';
import { bearerMatcher } from './bearerToken.js';

/** What the edge needs to serve GET /metrics. */
export interface MetricsEndpoint {
  readonly metrics: Metrics;
  /** When not empty, a scrape must send `Authorization: Bearer <token>`. */
  readonly token: string;
  readonly contentType: string;
  render(): Promise<string>;
}

/** The route label of a request no router matched (404s, preflights): one series, whatever the URL. */
const UNMATCHED_ROUTE = 'unmatched';

interface RouteSeries {
  readonly requests: CounterHandle;
  readonly seconds: HistogramHandle;
}

/** Where the metrics middleware finds the route the router matched (set by @koa/router). */
interface MatchedRoute {
  _matchedRoute?: string | RegExp;
}

/**
 * Counts requests by method, route template (`/api/channels/:channel_id/messages`, never the URL:
 * one series per route, not per id) and status, with a latency histogram per method and route.
 * Installed first, so it sees the status the error middleware gave a thrown error.
 */
export function httpMetrics(metrics: Metrics): Middleware {
  const requests = metrics.counter({
    name: 'chorus_http_requests_total',
    help: 'HTTP requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'],
  });
  const seconds = metrics.histogram({
    name: 'chorus_http_request_duration_seconds',
    help: 'HTTP request latency (until the body is handed to Node), by method and route template',
    labelNames: ['method', 'route'],
    buckets: LATENCY_BUCKETS_S,
  });
  // Label children are made once per route, method and status seen, then reused: three map lookups
  // per request and nothing allocated.
  const series = new Map<string, Map<string, Map<number, RouteSeries>>>();
  const seriesOf = (method: string, route: string, status: number): RouteSeries => {
    let byMethod = series.get(route);
    if (!byMethod) series.set(route, (byMethod = new Map<string, Map<number, RouteSeries>>()));
    let byStatus = byMethod.get(method);
    if (!byStatus) byMethod.set(method, (byStatus = new Map<number, RouteSeries>()));
    let found = byStatus.get(status);
    if (!found) {
      found = { requests: requests.labels(method, route, String(status)), seconds: seconds.labels(method, route) };
      byStatus.set(status, found);
    }
    return found;
  };
  return async (ctx, next) => {
    const startMs = performance.now();
    try {
      await next();
    } finally {
      const matched = (ctx as MatchedRoute)._matchedRoute;
      const route = typeof matched === 'string' ? matched : UNMATCHED_ROUTE;
      const method = KNOWN_METHODS.has(ctx.method) ? ctx.method : 'OTHER';
      const { requests: count, seconds: latency } = seriesOf(method, route, ctx.status);
      count.inc();
      latency.observe(secondsSince(startMs));
    }
  };
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** Names the route of a request a middleware answers outside the routers (health, /metrics). */
export function labelRoute(ctx: object, route: string): void {
  (ctx as MatchedRoute)._matchedRoute = route;
}

/**
 * Serves GET /metrics (not under /api: Discord has no such route) before auth and rate limits, so
 * a scraper needs no account; with a token configured, only a caller presenting it gets the text.
 */
export function metricsRoute(endpoint: MetricsEndpoint): Middleware {
  const presentsToken = bearerMatcher(endpoint.token);
  const allowed = (header: string): boolean => endpoint.token === '' || presentsToken(header);
  const serve = async (ctx: Parameters<Middleware>[0]): Promise<void> => {
    labelRoute(ctx, '/metrics');
    if (!allowed(ctx.get('authorization'))) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Bearer');
      ctx.body = { message: '401: Unauthorized', code: 0 };
      return;
    }
    ctx.type = endpoint.contentType;
    ctx.body = await endpoint.render();
  };
  // Every other request passes straight on (next()'s promise returned, no async layer of its own).
  return (ctx, next) =>
    ctx.path !== '/metrics' || (ctx.method !== 'GET' && ctx.method !== 'HEAD') ? next() : serve(ctx);
}
