import type { Router } from '@koa/router';
import { UnknownEntityError } from '../../domain/errors.js';
import { Right } from '../../domain/rights.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { requireCaller, requireRight, sendReply } from '../routeKit.js';
import { askGuild, flagQuery, publicUserJson } from './guildRouteKit.js';
import { refuseBots } from './userRouteKit.js';

/** Invite codes (and vanity codes) as Chorus issues them. */
const CODE_PATTERN = /^[A-Za-z0-9-]{1,32}$/;

/** The guild holding the invite of the route's `{code}`; 404 10006 for a malformed or unknown code. */
async function guildOfInvite(ctx: EdgeContext, deps: EdgeDeps): Promise<{ code: string; guildId: string }> {
  const code = ctx.params['code'] ?? '';
  const guildId = CODE_PATTERN.test(code) ? await deps.invites.resolveInvite(code) : undefined;
  if (!guildId) throw new UnknownEntityError('invite');
  return { code, guildId };
}

/** Invites: look up, accept (join), delete. */
export function inviteRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get('/invites/:code', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    const { code, guildId } = await guildOfInvite(ctx, deps);
    const withCounts = flagQuery(ctx, 'with_counts');
    sendReply(
      ctx,
      await askGuild(deps, guildId, { $case: 'getInvite', getInvite: { caller, code, withCounts, userJson: '' } }),
    );
  });
  // Joining by invite is for people (bots join through OAuth2 authorization): 403 20001.
  router.post('/invites/:code', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    refuseBots(caller);
    requireRight(caller, Right.USE_MASS_INVITES, 'USE_MASS_INVITES');
    const { code, guildId } = await guildOfInvite(ctx, deps);
    const userJson = await publicUserJson(deps, caller, caller.userId);
    sendReply(
      ctx,
      await askGuild(deps, guildId, {
        $case: 'acceptInvite',
        acceptInvite: { caller, code, withCounts: false, userJson },
      }),
    );
  });
  router.delete('/invites/:code', async (ctx: EdgeContext) => {
    const caller = await requireCaller(ctx, deps);
    const { code, guildId } = await guildOfInvite(ctx, deps);
    sendReply(
      ctx,
      await askGuild(deps, guildId, {
        $case: 'deleteInvite',
        deleteInvite: { caller, code, withCounts: false, userJson: '' },
      }),
    );
  });
}
