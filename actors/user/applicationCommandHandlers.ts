import type { ApplicationCommandRequest, UserReply } from '../../proto/gen/chorus/v1/user.js';
import { MissingAccessError, MissingPermissionsError, UnknownEntityError } from '../../src/domain/errors.js';
import { GLOBAL_SCOPE, type ApplicationCommandRecord } from '../runtime/ports/applicationCommandStore.js';
import {
  checkCommand,
  checkLimits,
  checkUniqueNames,
  commandObject,
  duplicateName,
  fieldsOf,
  typeOf,
  type CommandFields,
} from './applicationCommands.js';
import { emptyReply, jsonReply, requireSelf, type UserTurn } from './userTurn.js';
import { bodyOf } from '../../src/contract/bodyOf.js';
import {
  ApplicationCommandBulkSchema,
  ApplicationCommandCreateSchema,
  ApplicationCommandEditSchema,
} from '../../src/contract/index.js';

/**
 * Application commands are served by the caller's own User actor, which checks that the caller owns the
 * application or is its bot, then reads and writes the ApplicationCommandStore directly: applications
 * themselves are records in the ApplicationStore that no actor holds in memory (applicationHandlers
 * works the same way), so there is no actor state to keep in step.
 */
interface Scope {
  readonly applicationId: string;
  readonly guildId: string | null;
  readonly scope: string;
}

/** The request's scope once the caller may manage the application's commands there. */
async function authorize(turn: UserTurn, request: ApplicationCommandRequest): Promise<Scope> {
  const caller = requireSelf(turn, request);
  const app = await turn.stores.applications.get(request.applicationId);
  if (!app) throw new UnknownEntityError('application');
  if (app.owner_id !== caller.userId && app.bot_user_id !== caller.userId) throw new MissingPermissionsError();
  const guildId = request.guildId === '' ? null : request.guildId;
  if (guildId !== null) {
    // Guild commands need the application in the guild; without OAuth2 `applications.commands` grants
    // here, that means its bot is a member.
    const botGuilds =
      app.bot_user_id === turn.user.id
        ? [...turn.guildIds]
        : app.bot_user_id === null
          ? []
          : await turn.stores.guilds.guildIdsOfUser(app.bot_user_id);
    if (!botGuilds.includes(guildId)) throw new MissingAccessError();
  }
  return { applicationId: app.id, guildId, scope: guildId ?? GLOBAL_SCOPE };
}

/** A record for `fields` under `id`; its version stays when nothing changed, else is a new snowflake. */
function recordFor(
  turn: UserTurn,
  scope: Scope,
  id: string,
  fields: CommandFields,
  previous?: ApplicationCommandRecord,
): ApplicationCommandRecord {
  const key = { id, applicationId: scope.applicationId, guildId: scope.guildId };
  const oldVersion = typeof previous?.data['version'] === 'string' ? previous.data['version'] : '';
  const same = commandObject({ ...key, version: oldVersion }, fields);
  const unchanged = previous !== undefined && JSON.stringify(same) === JSON.stringify(previous.data);
  const data = unchanged ? same : commandObject({ ...key, version: turn.ctx.ids.next() }, fields);
  return { id, application_id: scope.applicationId, scope: scope.scope, data };
}

const sameKey = (record: ApplicationCommandRecord, fields: CommandFields): boolean =>
  typeOf(record.data) === typeOf(fields) && record.data['name'] === fields.name;

/** A bulk item without the `id` it may carry (that id only picks which command it replaces). */
function withoutId(fields: CommandFields): CommandFields {
  const copy = { ...fields };
  delete copy.id;
  return copy;
}

function find(records: readonly ApplicationCommandRecord[], commandId: string): ApplicationCommandRecord {
  const found = records.find((record) => record.id === commandId);
  if (!found) throw new UnknownEntityError('application command');
  return found;
}

/** The application-command routes, by `op`. */
export async function applicationCommands(turn: UserTurn, request: ApplicationCommandRequest): Promise<UserReply> {
  const scope = await authorize(turn, request);
  const store = turn.stores.applicationCommands;
  const records = await store.list(scope.applicationId, scope.scope);
  switch (request.op) {
    case 'list':
      return jsonReply(records.map((record) => record.data));
    case 'get':
      return jsonReply(find(records, request.commandId).data);
    case 'delete':
      await store.delete(scope.applicationId, scope.scope, find(records, request.commandId).id);
      return emptyReply();
    case 'create': {
      // Discord's upsert: a command of the same name and type is replaced in place (200), else created (201).
      const fields = bodyOf(ApplicationCommandCreateSchema, request.body);
      checkCommand(fields);
      const previous = records.find((record) => sameKey(record, fields));
      if (!previous) checkLimits([...records.map((record) => record.data), fields]);
      const record = recordFor(turn, scope, previous?.id ?? turn.ctx.ids.next(), fields, previous);
      await store.save(record);
      return previous
        ? jsonReply(record.data)
        : { reply: { $case: 'created', created: { json: JSON.stringify(record.data) } } };
    }
    case 'edit': {
      const previous = find(records, request.commandId);
      const changes = bodyOf(ApplicationCommandEditSchema, request.body);
      // The type of a command never changes; everything else merges over the stored fields.
      const fields = { ...fieldsOf(previous.data), ...changes, type: typeOf(previous.data) };
      checkCommand(fields);
      if (records.some((record) => record.id !== previous.id && sameKey(record, fields))) throw duplicateName('name');
      const record = recordFor(turn, scope, previous.id, fields, previous);
      await store.save(record);
      return jsonReply(record.data);
    }
    case 'overwrite': {
      const items = bodyOf(ApplicationCommandBulkSchema, request.body);
      items.forEach((fields, index) => {
        checkCommand(fields, `${index}.`);
      });
      checkUniqueNames(items);
      checkLimits(items);
      const next = items.map((fields) => {
        const previous = records.find((record) => record.id === fields.id) ?? records.find((r) => sameKey(r, fields));
        return recordFor(turn, scope, previous?.id ?? turn.ctx.ids.next(), withoutId(fields), previous);
      });
      await store.saveAll(scope.applicationId, scope.scope, next);
      return jsonReply(next.map((record) => record.data));
    }
    default:
      throw new UnknownEntityError('application command');
  }
}
