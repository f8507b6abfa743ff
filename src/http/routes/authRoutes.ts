import type { Router } from '@koa/router';
import { tokenFromHeader } from '../../domain/tokens.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { bodyFor, requireCaller, sendJson, sendObject } from '../routeKit.js';
import { askUser } from './userRouteKit.js';

/** Account entry points: register, login (and its TOTP step), logout, and the public consent metadata. */
export function authRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.post('/auth/register', async (ctx: EdgeContext) => {
    const body = bodyFor(ctx, 'RegisterSchema');
    sendJson(ctx, await deps.accounts.register(deps.ids.next(), body));
  });
  router.post('/auth/login', async (ctx: EdgeContext) => {
    sendJson(ctx, await deps.accounts.login(bodyFor(ctx, 'LoginSchema')));
  });
  router.post('/auth/mfa/totp', async (ctx: EdgeContext) => {
    sendJson(ctx, await deps.accounts.loginTotp(bodyFor(ctx, 'TotpSchema')));
  });
  router.post('/auth/logout', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    const token = tokenFromHeader(ctx.get('authorization')) ?? '';
    await askUser(deps, caller.userId, { $case: 'logout', logout: { token } });
    ctx.status = 204;
  });
  router.get('/auth/location-metadata', (ctx: EdgeContext) => {
    sendObject(ctx, {
      consent_required: false,
      country_code: 'US',
      promotional_email_opt_in: { required: false, pre_checked: false },
    });
  });
}
