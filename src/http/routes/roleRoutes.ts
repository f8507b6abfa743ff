import type { Router } from '@koa/router';
import { Permission } from '../../domain/permissions.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { askWithImages, storeImages } from '../imageUploads.js';
import { bodyFor, requireCaller, sendReply, snowflakeParam, validBody } from '../routeKit.js';
import { askGuild, guildRoute } from './guildRouteKit.js';
import { guildProbe, permissionFirst } from './permissionFirst.js';

/** Guild roles: list, create, reorder, get, modify, delete, their holders. */
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
    guildRoute(
      deps,
      (ctx, caller) => ({ $case: 'createRole', createRole: { caller, body: bodyFor(ctx, 'RoleCreateSchema') } }),
      { needs: Permission.MANAGE_ROLES },
    ),
  );
  router.patch(
    '/guilds/:guild_id/roles',
    guildRoute(
      deps,
      (ctx, caller) => ({
        $case: 'reorderRoles',
        reorderRoles: { caller, body: bodyFor(ctx, 'RolePositionUpdateSchema') },
      }),
      { needs: Permission.MANAGE_ROLES },
    ),
  );
  router.get(
    '/guilds/:guild_id/roles/:role_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'listRoles',
      listRoles: { caller, targetId: snowflakeParam(ctx, 'role_id'), withCounts: false },
    })),
  );
  // The Discord client's role screens: who holds a role, and giving it to several members at once.
  router.get(
    '/guilds/:guild_id/roles/:role_id/member-ids',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'roleMemberIds',
      roleMemberIds: { caller, targetId: snowflakeParam(ctx, 'role_id'), withCounts: false },
    })),
  );
  router.patch(
    '/guilds/:guild_id/roles/:role_id/members',
    guildRoute(
      deps,
      (ctx, caller) => ({
        $case: 'addRoleMembers',
        addRoleMembers: {
          caller,
          roleId: snowflakeParam(ctx, 'role_id'),
          body: bodyFor(ctx, 'RoleMembersSchema'),
        },
      }),
      { needs: Permission.MANAGE_ROLES },
    ),
  );
  // A role's icon is served at /role-icons/{role_id}/{hash}.png. A role created with an icon keeps only
  // the hash: its id is the actor's, so the edge cannot store the bytes under it beforehand.
  router.patch(
    '/guilds/:guild_id/roles/:role_id',
    permissionFirst(guildProbe(deps, Permission.MANAGE_ROLES), async (ctx: EdgeContext) => {
      const caller = await requireCaller(ctx, deps);
      const guildId = snowflakeParam(ctx, 'guild_id');
      const roleId = snowflakeParam(ctx, 'role_id');
      const images = await storeImages(deps, validBody(ctx, 'RoleModifySchema'), roleId, { icon: 'role-icons' });
      const reply = await askWithImages(deps, images.created, () =>
        askGuild(deps, guildId, { $case: 'updateRole', updateRole: { caller, roleId, body: images.body } }),
      );
      sendReply(ctx, reply);
    }),
  );
  router.delete(
    '/guilds/:guild_id/roles/:role_id',
    guildRoute(deps, (ctx, caller) => ({
      $case: 'deleteRole',
      deleteRole: { caller, roleId: snowflakeParam(ctx, 'role_id'), body: '' },
    })),
  );
}
