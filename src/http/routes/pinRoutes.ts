import type { Router } from '@koa/router';
import { ValidationError } from '../../domain/errors.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { intQuery, snowflakeParam } from '../routeKit.js';
import { channelRoute, stringQuery } from './messageRouteKit.js';
import type { PinsQuery } from '../../contract/channelCommandBodies.js';

/** `before` of the paginated pins route: an ISO8601 time, or '' when absent. */
function beforeTimeQuery(ctx: EdgeContext): string | undefined {
  const before = stringQuery(ctx, 'before');
  if (before === '') return undefined;
  if (Number.isNaN(Date.parse(before))) {
    throw ValidationError.field('before', 'DATE_TIME_TYPE_PARSE', `Could not parse ${before}. Should be ISO8601.`);
  }
  return before;
}

/**
 * Pins: the old routes (/channels/{id}/pins, a list of messages) and the new ones
 * (/channels/{id}/messages/pins, `{items, has_more}`). Mounted before the message routes, whose
 * /messages/{message_id} would otherwise take "pins".
 */
export function pinRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get(
    '/channels/:channel_id/pins',
    channelRoute(deps, (_ctx, caller) => ({ $case: 'listPins', listPins: { caller, body: '{}' } })),
  );
  router.get(
    '/channels/:channel_id/messages/pins',
    channelRoute(deps, (ctx, caller) => {
      const before = beforeTimeQuery(ctx);
      const query: PinsQuery = {
        paginated: true,
        limit: intQuery(ctx, 'limit', 50, 1, 50),
        ...(before ? { before } : {}),
      };
      return { $case: 'listPins', listPins: { caller, body: JSON.stringify(query) } };
    }),
  );
  for (const base of ['/channels/:channel_id/pins', '/channels/:channel_id/messages/pins']) {
    router.put(
      `${base}/:message_id`,
      channelRoute(deps, (ctx, caller) => ({
        $case: 'pin',
        pin: { caller, messageId: snowflakeParam(ctx, 'message_id'), body: '' },
      })),
    );
    router.delete(
      `${base}/:message_id`,
      channelRoute(deps, (ctx, caller) => ({
        $case: 'unpin',
        unpin: { caller, messageId: snowflakeParam(ctx, 'message_id'), body: '' },
      })),
    );
  }
}
