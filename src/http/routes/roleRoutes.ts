import type { Router } from '@koa/router';
import type { EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { bodyFor, snowflakeParam } from '../routeKit.js';
import { guildRoute } from './guildRouteKit.js';

/** Guild roles: list, create, reorder, get, modify, delete. */
export function roleRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  router.get(
    '/guilds/:guild_id/roles',
    guildRoute(deps, (_ctx, caller) => ({
      $case: 'listRoles',
      listRoles: { caller, targetId: '', withCounts: false },
    })),
  );
  router.post(
    '/guilds/:guild_id/roles',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'createRole',
      createRole: { caller, body: bodyFor(ctx, 'RoleCreateSchema') },
    })),
  );
  router.patch(
    '/guilds/:guild_id/roles',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'reorderRoles',
      reorderRoles: { caller, body: bodyFor(ctx, 'RolePositionUpdateSchema') },
    })),
  );
  router.get(
    '/guilds/:guild_id/roles/:role_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'listRoles',
      listRoles: { caller, targetId: snowflakeParam(ctx, 'role_id'), withCounts: false },
    })),
  );
  router.patch(
    '/guilds/:guild_id/roles/:role_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'updateRole',
      updateRole: { caller, roleId: snowflakeParam(ctx, 'role_id'), body: bodyFor(ctx, 'RoleModifySchema') },
    })),
  );
  router.delete(
    '/guilds/:guild_id/roles/:role_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'deleteRole',
      deleteRole: { caller, roleId: snowflakeParam(ctx, 'role_id'), body: '' },
    })),
  );
}
