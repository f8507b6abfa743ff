import type { Router } from '@koa/router';
import type { Caller } from '../../../proto/gen/chorus/v1/common.js';
import { Permission } from '../../domain/permissions.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { bodyFor, intQuery, requireCaller, sendJson, snowflakeParam, snowflakeQuery } from '../routeKit.js';
import { askGuild, guildRoute, replyText } from './guildRouteKit.js';
import { guildProbe, permissionFirst } from './permissionFirst.js';

/** The route's `{member_id}`, with "@me" meaning the caller. */
function memberParam(ctx: EdgeContext, caller: Caller): string {
  return ctx.params['member_id'] === '@me' ? caller.userId : snowflakeParam(ctx, 'member_id');
}

/** What changing another member can take: any one of these (each field of the body needs its own). */
const MANAGE_A_MEMBER =
  Permission.MANAGE_NICKNAMES |
  Permission.MANAGE_ROLES |
  Permission.MODERATE_MEMBERS |
  Permission.MUTE_MEMBERS |
  Permission.DEAFEN_MEMBERS |
  Permission.MOVE_MEMBERS;

/** Guild members: list, search, get, modify (incl. @me and nick), kick or leave, add and remove roles. */
export function memberRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get(
    '/guilds/:guild_id/members',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'listMembers',
      listMembers: {
        caller,
        limit: intQuery(ctx, 'limit', 1, 1, 1000),
        after: snowflakeQuery(ctx, 'after'),
        query: '',
      },
    })),
  );
  router.get(
    '/guilds/:guild_id/members/search',
    guildRoute(deps, (ctx, caller) => {
      const raw = ctx.query['query'];
      const query = (Array.isArray(raw) ? raw[0] : raw) ?? '';
      return {
        $case: 'listMembers',
        listMembers: { caller, limit: intQuery(ctx, 'limit', 1, 1, 1000), after: '', query },
      };
    }),
  );
  // PATCH .../members/@me/nick (and the spec's .../{member_id}/nick): answers {nick}.
  const nickNeeds = (ctx: EdgeContext, caller: Caller): bigint =>
    memberParam(ctx, caller) === caller.userId
      ? Permission.CHANGE_NICKNAME | Permission.MANAGE_NICKNAMES
      : Permission.MANAGE_NICKNAMES;
  router.patch(
    '/guilds/:guild_id/members/:member_id/nick',
    permissionFirst(guildProbe(deps, nickNeeds), async (ctx: EdgeContext) => {
      const caller = await requireCaller(ctx, deps);
      const guildId = snowflakeParam(ctx, 'guild_id');
      const userId = memberParam(ctx, caller);
      const body = bodyFor(ctx, 'MemberNickChangeSchema');
      const member = replyText(
        await askGuild(deps, guildId, { $case: 'updateMember', updateMember: { caller, userId, body } }),
      );
      sendJson(ctx, JSON.stringify({ nick: (JSON.parse(member) as { nick: string | null }).nick }));
    }),
  );
  router.get(
    '/guilds/:guild_id/members/:member_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'getMember',
      getMember: { caller, userId: memberParam(ctx, caller), body: '' },
    })),
  );
  router.patch(
    '/guilds/:guild_id/members/:member_id',
    guildRoute(
      deps,
      (ctx, caller) => ({
        $case: 'updateMember',
        updateMember: { caller, userId: memberParam(ctx, caller), body: bodyFor(ctx, 'MemberChangeSchema') },
      }),
      // Yourself: some fields (avatar, bio) need nothing beyond membership.
      { needs: (ctx, caller) => (memberParam(ctx, caller) === caller.userId ? 0n : MANAGE_A_MEMBER) },
    ),
  );
  router.delete(
    '/guilds/:guild_id/members/:member_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'removeMember',
      removeMember: { caller, userId: memberParam(ctx, caller), body: '' },
    })),
  );
  router.put(
    '/guilds/:guild_id/members/:member_id/roles/:role_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'addMemberRole',
      addMemberRole: { caller, userId: memberParam(ctx, caller), roleId: snowflakeParam(ctx, 'role_id') },
    })),
  );
  router.delete(
    '/guilds/:guild_id/members/:member_id/roles/:role_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'removeMemberRole',
      removeMemberRole: { caller, userId: memberParam(ctx, caller), roleId: snowflakeParam(ctx, 'role_id') },
    })),
  );
}
