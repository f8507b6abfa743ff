import type { Router } from '@koa/router';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { intQuery, snowflakeParam, snowflakeQuery } from '../routeKit.js';
import { channelRoute } from './messageRouteKit.js';

const BASE = '/channels/:channel_id/messages/:message_id/reactions';

/** The `{emoji}` path segment: URL-encoded unicode or `name:id` (the actor validates it, 10014). */
function emojiParam(ctx: EdgeContext): string {
  const raw = ctx.params['emoji'] ?? '';
  try {
    return raw.includes('%') ? decodeURIComponent(raw) : raw;
  } catch {
    return raw;
  }
}

/** Reactions: add/remove one's own, remove another user's, list users, remove all or one emoji. */
export function reactionRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  const target = (ctx: EdgeContext, userId = '') => ({
    messageId: snowflakeParam(ctx, 'message_id'),
    emoji: emojiParam(ctx),
    userId,
    limit: 0,
    after: '',
  });
  router.put(
    `${BASE}/:emoji/@me`,
    channelRoute(deps, (ctx, caller) => ({ $case: 'addReaction', addReaction: { caller, ...target(ctx) } })),
  );
  router.delete(
    `${BASE}/:emoji/@me`,
    channelRoute(deps, (ctx, caller) => ({ $case: 'removeReaction', removeReaction: { caller, ...target(ctx) } })),
  );
  router.delete(
    `${BASE}/:emoji/:user_id`,
    channelRoute(deps, (ctx, caller) => ({
      $case: 'removeReaction',
      removeReaction: { caller, ...target(ctx, snowflakeParam(ctx, 'user_id')) },
    })),
  );
  router.get(
    `${BASE}/:emoji`,
    channelRoute(deps, (ctx, caller) => ({
      $case: 'listReactions',
      listReactions: {
        caller,
        ...target(ctx),
        limit: intQuery(ctx, 'limit', 25, 1, 100),
        after: snowflakeQuery(ctx, 'after'),
      },
    })),
  );
  router.delete(
    `${BASE}/:emoji`,
    channelRoute(deps, (ctx, caller) => ({
      $case: 'removeAllReactions',
      removeAllReactions: { caller, ...target(ctx) },
    })),
  );
  router.delete(
    BASE,
    channelRoute(deps, (ctx, caller) => ({
      $case: 'removeAllReactions',
      removeAllReactions: { caller, ...target(ctx), emoji: '' },
    })),
  );
}
