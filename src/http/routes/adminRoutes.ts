import type { Router } from '@koa/router';
import { ActorKind } from '../../../cluster/ActorSystem.js';
import { ValidationError } from '../../domain/errors.js';
import { isJsonObject } from '../../domain/jsonValue.js';
import { Right, rightNamed } from '../../domain/rights.js';
import { bearerMatcher } from '../bearerToken.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { requireCaller, requireRight, sendReply, snowflakeParam } from '../routeKit.js';

/** Right names one request may list in `grant` or in `revoke` (there are 50 rights). */
const MAX_NAMES = 64;

/** The mask of a body field listing right names (absent: none); 400 50035 naming the field otherwise. */
function namedMask(body: Record<string, unknown>, field: 'grant' | 'revoke'): string {
  const names = body[field];
  if (names === undefined) return '';
  if (!Array.isArray(names) || names.length > MAX_NAMES)
    throw ValidationError.field(field, 'BASE_TYPE_ARRAY', `Must be a list of at most ${MAX_NAMES} right names.`);
  let mask = 0n;
  for (const [index, name] of names.entries()) {
    const right = typeof name === 'string' ? rightNamed(name) : undefined;
    if (right === undefined) throw ValidationError.field(`${field}.${index}`, 'RIGHT_UNKNOWN', 'Unknown right.');
    mask |= right;
  }
  return mask.toString();
}

/**
 * Operator routes, Chorus's own (Discord has none; under `/-/` like the health path): an account's instance
 * rights, read and changed through its User actor, so a change applies to the user's next request on any
 * node (a node that cached the caller from another node's actor keeps it for CHORUS_AUTH_CACHE_MS at
 * most). Allowed with `Authorization: Bearer <CHORUS_ADMIN_TOKEN>` or a token of a user holding OPERATOR;
 * 401 without either, 403 50013 for a user without OPERATOR.
 *
 * `GET /-/admin/users/{id}/rights`, `PATCH` with `{"grant": ["OPERATOR"], "revoke": ["SEND_MESSAGES"]}`:
 * both answer `{"id", "rights", "names"}` (the mask as a decimal string, the names it holds).
 */
export function adminRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  const presentsAdminToken = bearerMatcher(deps.adminToken ?? '');
  const requireOperator = async (ctx: EdgeContext): Promise<void> => {
    if (presentsAdminToken(ctx.get('authorization'))) return;
    requireRight(await requireCaller(ctx, deps), Right.OPERATOR, 'OPERATOR');
  };
  const setRights = async (ctx: EdgeContext, grant: string, revoke: string): Promise<void> => {
    const userId = snowflakeParam(ctx, 'user_id');
    const reply = await deps.system.ask(ActorKind.User, userId, {
      command: { $case: 'setRights', setRights: { grant, revoke } },
    });
    sendReply(ctx, reply);
  };
  router.get('/-/admin/users/:user_id/rights', async (ctx: EdgeContext) => {
    await requireOperator(ctx);
    await setRights(ctx, '', ''); // no change: the actor answers the mask it holds
  });
  router.patch('/-/admin/users/:user_id/rights', async (ctx: EdgeContext) => {
    await requireOperator(ctx);
    const body: unknown = (ctx.request as { body?: unknown }).body ?? {};
    if (!isJsonObject(body)) throw ValidationError.field('_errors', 'BASE_TYPE_OBJECT', 'Must be an object.');
    await setRights(ctx, namedMask(body, 'grant'), namedMask(body, 'revoke'));
  });
}
