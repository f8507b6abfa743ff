import { SpanKind } from '@opentelemetry/api';
import type { Middleware } from 'koa';
import { contextFromHeaders, endSpan, runInSpan, startSpan } from '../tracing/traceScope.js';

/** Where the router leaves the route template it matched (set by @koa/router, or by labelRoute). */
interface MatchedRoute {
  _matchedRoute?: string | RegExp;
}

/**
 * One SERVER span per HTTP request, named `<METHOD> <route template>` once the router matched (the
 * URL would make one name per id), child of the caller's `traceparent` when it sent one. The
 * request's work runs inside the span, so every actor turn and remote call it causes joins its
 * trace. Installed only while tracing is on (createHttpApp), right after the metrics middleware, so
 * it too sees the status the error middleware gave a thrown error.
 */
export function httpTracing(): Middleware {
  return async (ctx, next) => {
    const parent = contextFromHeaders((name) => ctx.get(name) || undefined);
    // No `url.path`: paths carry secrets (webhook and interaction tokens); the route template names the request.
    const span = startSpan(ctx.method, SpanKind.SERVER, parent, {
      'http.request.method': ctx.method,
      'url.scheme': ctx.protocol,
    });
    if (!span) {
      await next();
      return;
    }
    let failure: unknown;
    try {
      await runInSpan(parent, span, next);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      const matched = (ctx as MatchedRoute)._matchedRoute;
      if (typeof matched === 'string') {
        span.updateName(`${ctx.method} ${matched}`);
        span.setAttribute('http.route', matched);
      }
      span.setAttribute('http.response.status_code', ctx.status);
      endSpan(span, failure ?? (ctx.status >= 500 ? new Error(`HTTP ${ctx.status}`) : undefined));
    }
  };
}
