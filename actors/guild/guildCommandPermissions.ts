import type { CommandPermissions, GuildReply } from '../../proto/gen/chorus/v1/guild.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import { ApplicationCommandPermissionsSchema } from '../../src/contract/index.js';
import { ForbiddenError, MissingAccessError, UnknownEntityError } from '../../src/domain/errors.js';
import { UNGATED } from '../../src/domain/intents.js';
import { Permission, hasAll } from '../../src/domain/permissions.js';
import { GLOBAL_SCOPE } from '../runtime/ports/applicationCommandStore.js';
import type { ApplicationRecord } from '../runtime/ports/records.js';
import { callerId, emptyReply, jsonReply, type GuildRuntime } from './GuildRuntime.js';
import { permissionsScope } from './guildCommandIndex.js';
import { memberPermissions, requireGuildPermission } from './guildPermissions.js';

/**
 * The application of the route, which must have its bot in the guild (404 10002 otherwise: the guild
 * knows no such application).
 */
async function guildApplication(rt: GuildRuntime, applicationId: string): Promise<ApplicationRecord> {
  const app = await rt.stores.applications.get(applicationId);
  if (!app || app.bot_user_id === null || !rt.state.members.has(app.bot_user_id)) {
    throw new UnknownEntityError('application');
  }
  return app;
}

/**
 * Who may read a guild's overrides of an application's commands: the application itself (its bot or its
 * owner, as Discord lets a bot token GET them), or a member who may manage the guild.
 */
function requireReader(rt: GuildRuntime, app: ApplicationRecord, userId: string): void {
  if (userId === app.bot_user_id || userId === app.owner_id) return;
  requireGuildPermission(rt.state, userId, Permission.MANAGE_GUILD);
}

/**
 * Who may change them. Discord takes these edits only from a user's Bearer token (never a bot's: 403 20001)
 * of someone who may manage the guild and its roles; Chorus has no OAuth2 Bearer tokens, so a user account
 * holding MANAGE_GUILD and MANAGE_ROLES here (owner and administrators included) may, and nobody else (403 50013).
 */
function requireEditor(rt: GuildRuntime, bot: boolean, userId: string): void {
  if (bot) throw new ForbiddenError('Bots cannot use this endpoint', 20_001);
  requireGuildPermission(rt.state, userId, Permission.MANAGE_GUILD | Permission.MANAGE_ROLES);
}

/** The command (global or of this guild) or the application itself, which the overrides are for. */
async function requireTarget(rt: GuildRuntime, app: ApplicationRecord, commandId: string): Promise<void> {
  if (commandId === app.id) return;
  const [global, local] = await Promise.all([
    rt.stores.applicationCommands.list(app.id, GLOBAL_SCOPE),
    rt.stores.applicationCommands.list(app.id, rt.state.id),
  ]);
  if (![...global, ...local].some((record) => record.id === commandId)) {
    throw new UnknownEntityError('application command');
  }
}

/**
 * APPLICATION_COMMAND_PERMISSIONS_UPDATE (no intent gates it) to the application's bot, whose handlers may
 * cache the overrides, and to the members who may read them.
 */
function announce(rt: GuildRuntime, app: ApplicationRecord, data: unknown): void {
  const state = rt.state;
  const readers = (userId: string): boolean =>
    userId === app.bot_user_id || hasAll(memberPermissions(state, userId), Permission.MANAGE_GUILD);
  const event = { event: 'APPLICATION_COMMAND_PERMISSIONS_UPDATE', dataJson: JSON.stringify(data), intent: UNGATED };
  rt.fanout.send(event, readers);
}

/**
 * GET /applications/{id}/guilds/{id}/commands/permissions (op list: every stored override set),
 * GET .../commands/{id}/permissions (op get: 404 10066 when the guild set none) and PUT of the latter
 * (op put: replaces the command's, or with the application id as command id the application's, overrides;
 * op probe: only whether the caller may put).
 * The object is Discord's `{ id, application_id, guild_id, permissions }`.
 */
export async function commandPermissions(rt: GuildRuntime, request: CommandPermissions): Promise<GuildReply> {
  const userId = callerId(request.caller);
  const app = await guildApplication(rt, request.applicationId);
  const scope = permissionsScope(rt.state.id);
  const store = rt.stores.applicationCommands;
  switch (request.op) {
    case 'list': {
      requireReader(rt, app, userId);
      return jsonReply((await store.list(app.id, scope)).map((record) => record.data));
    }
    case 'get': {
      requireReader(rt, app, userId);
      const found = (await store.list(app.id, scope)).find((record) => record.id === request.commandId);
      if (!found) throw new UnknownEntityError('application command permissions');
      return jsonReply(found.data);
    }
    case 'probe': {
      // Before the edge reports a bad PUT body: would this caller be allowed the edit at all?
      requireEditor(rt, request.caller?.bot === true, userId);
      return emptyReply();
    }
    case 'put': {
      requireEditor(rt, request.caller?.bot === true, userId);
      await requireTarget(rt, app, request.commandId);
      const { permissions } = bodyOf(ApplicationCommandPermissionsSchema, request.body);
      const data = { id: request.commandId, application_id: app.id, guild_id: rt.state.id, permissions };
      await store.save({ id: request.commandId, application_id: app.id, scope, data });
      announce(rt, app, data);
      return jsonReply(data);
    }
    default:
      throw new MissingAccessError();
  }
}
