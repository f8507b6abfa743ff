import type { Router } from '@koa/router';
import type { SchemaName } from '../../contract/index.js';
import type { EdgeContext, EdgeDeps, EdgeState } from '../EdgeDeps.js';
import { bodyFor, requireCaller, sendJson, sendReply, snowflakeParam } from '../routeKit.js';
import { commandIndexRoutes } from './commandIndexRoutes.js';
import { permissionFirst } from './permissionFirst.js';
import { askUser } from './userRouteKit.js';

type Op = 'list' | 'create' | 'overwrite' | 'get' | 'edit' | 'delete';

/** The body schema of each op that takes one. */
const BODY: Partial<Record<Op, SchemaName>> = {
  create: 'ApplicationCommandCreateSchema',
  overwrite: 'ApplicationCommandBulkSchema',
  edit: 'ApplicationCommandEditSchema',
};

/** Asks the caller's User actor for `op` on the route's application (and guild) commands. */
async function askCommands(ctx: EdgeContext, deps: EdgeDeps, op: Op, body: () => string) {
  const caller = await requireCaller(ctx, deps);
  const applicationId = snowflakeParam(ctx, 'applicationId');
  const guildId = ctx.params['guildId'] === undefined ? '' : snowflakeParam(ctx, 'guildId');
  const commandId = ctx.params['commandId'] === undefined ? '' : snowflakeParam(ctx, 'commandId');
  return askUser(deps, caller.userId, {
    $case: 'applicationCommands',
    applicationCommands: {
      caller,
      applicationId,
      guildId,
      commandId: op === 'list' ? '' : commandId,
      op,
      body: body(),
    },
  });
}

/**
 * One application-command route: validated at the edge, then served by the caller's own User actor
 * (which checks that the caller owns the application or is its bot). POST answers 201 for a new
 * command and 200 when it replaced one of the same name (Discord's upsert). Before a body is
 * reported invalid, listing the same commands checks the caller may manage them (permissionFirst).
 */
function commandRoute(deps: EdgeDeps, op: Op) {
  const schema = BODY[op];
  const handler = async (ctx: EdgeContext): Promise<void> => {
    const reply = await askCommands(ctx, deps, op, () => (schema === undefined ? '' : bodyFor(ctx, schema)));
    if (reply.reply?.$case === 'created') sendJson(ctx, reply.reply.created.json, 201);
    else sendReply(ctx, reply);
  };
  if (schema === undefined) return handler;
  return permissionFirst(async (ctx) => {
    await askCommands(ctx, deps, 'list', () => '');
  }, handler);
}

/**
 * Global and guild application (slash) commands of an application; and, registered first, the command
 * index user clients list them by and the guild's command permissions (commandIndexRoutes.ts).
 */
export function applicationCommandRoutes(router: Router<EdgeState>, deps: EdgeDeps): void {
  commandIndexRoutes(router, deps);
  for (const base of [
    '/applications/:applicationId/commands',
    '/applications/:applicationId/guilds/:guildId/commands',
  ]) {
    router.get(base, commandRoute(deps, 'list'));
    router.post(base, commandRoute(deps, 'create'));
    router.put(base, commandRoute(deps, 'overwrite'));
    router.get(`${base}/:commandId`, commandRoute(deps, 'get'));
    router.patch(`${base}/:commandId`, commandRoute(deps, 'edit'));
    router.delete(`${base}/:commandId`, commandRoute(deps, 'delete'));
  }
}
