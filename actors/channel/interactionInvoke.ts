import { MissingPermissionsError, UnknownEntityError, ValidationError } from '../../src/domain/errors.js';
import { isJsonObject, type JsonObject } from '../../src/domain/jsonValue.js';
import { usableInBotDm } from '../../src/domain/commandAccess.js';
import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import type { InteractionCreateBody } from '../../src/contract/interaction.js';
import type { ApplicationRecord, MessageRecord } from '../runtime/ports/records.js';
import { GLOBAL_SCOPE } from '../runtime/ports/applicationCommandStore.js';
import type { ChannelScope } from './ChannelScope.js';
import { checkOptions, definitionsOf, noIds, type NamedIds } from './interactionOptions.js';
import { resolveIds } from './interactionResolved.js';
import type { LiveInteraction } from './InteractionRegistry.js';

/** Interaction types a user creates (Discord's InteractionType). */
export const InteractionType = { Command: 2, Component: 3, Autocomplete: 4, ModalSubmit: 5 } as const;

/** What one checked invocation contributes to the interaction object and its live state. */
export interface Invocation {
  readonly data: JsonObject;
  /** interaction_metadata fields beyond id, type, user and authorizing_integration_owners. */
  readonly metadata: JsonObject;
  readonly sourceMessage: MessageRecord | undefined;
  /** The message type of responses: 20 CHAT_INPUT_COMMAND, 23 CONTEXT_MENU_COMMAND, 0 otherwise. */
  readonly responseType: number;
}

const field = (path: string, message: string): ValidationError =>
  ValidationError.field(path, 'INTERACTION_INVALID', message);

/** The command `commandId` of the application in this guild or global; 404 10063 otherwise. */
async function findCommand(scope: ChannelScope, applicationId: string, commandId: string): Promise<JsonObject> {
  const guildId = scope.channel.guild_id;
  const scopes = guildId === null ? [GLOBAL_SCOPE] : [guildId, GLOBAL_SCOPE];
  for (const where of scopes) {
    const found = (await scope.stores.applicationCommands.list(applicationId, where)).find((c) => c.id === commandId);
    if (found) return found.data;
  }
  throw new UnknownEntityError('application command');
}

/**
 * Whether the user may use the command here. In a guild the Guild decides, by the command permissions v2
 * (its command index for this channel and command: USE_APPLICATION_COMMANDS, overrides, contexts,
 * default_member_permissions): a command the user may not use answers 403 50013. In a DM, a global
 * command usable in a bot DM (usableInBotDm); 404 10063 otherwise.
 */
async function requireUsable(scope: ChannelScope, caller: Caller, command: JsonObject): Promise<void> {
  const guildId = scope.channel.guild_id;
  if (guildId === null) {
    if (!usableInBotDm(command)) throw new UnknownEntityError('application command');
    return;
  }
  const commandIndex = { caller, channelId: scope.channel.id, commandId: String(command['id']) };
  await scope.ctx
    .ask('guild', guildId, { command: { $case: 'commandIndex', commandIndex } })
    .catch((error: unknown) => {
      if (error instanceof UnknownEntityError && error.entity === 'application command') {
        throw new MissingPermissionsError('USE_APPLICATION_COMMANDS');
      }
      throw error;
    });
}

/** Type 2 (command) and 4 (autocomplete): the command exists here, the user may use it, its options fit. */
export async function invokeCommand(
  scope: ChannelScope,
  caller: Caller,
  app: ApplicationRecord,
  body: InteractionCreateBody,
): Promise<Invocation> {
  const { data } = body;
  if (data.id === undefined) throw field('data.id', 'This field is required');
  const command = await findCommand(scope, app.id, data.id);
  await requireUsable(scope, caller, command);
  const commandType = Number(command['type'] ?? 1);
  if (data.type !== undefined && data.type !== commandType) throw field('data.type', 'The command has another type.');
  const ids: NamedIds = noIds();
  const focused = checkOptions(definitionsOf(command['options']), data.options ?? [], 'data.options', ids);
  const autocomplete = body.type === InteractionType.Autocomplete;
  if (autocomplete !== (focused === 1)) {
    throw field('data.options', autocomplete ? 'Exactly one option must be focused.' : 'No option may be focused.');
  }
  const out: JsonObject = { id: data.id, name: command['name'], type: commandType };
  if (data.options !== undefined) out['options'] = data.options;
  if (typeof command['guild_id'] === 'string') out['guild_id'] = command['guild_id'];
  let target: MessageRecord | undefined;
  if (commandType !== 1) {
    if (data.target_id === undefined) throw field('data.target_id', 'This field is required');
    out['target_id'] = data.target_id;
    if (commandType === 2) ids.users.add(data.target_id);
    else target = await scope.message(data.target_id);
  }
  const resolved = await resolveIds(scope, caller, ids, target);
  if (resolved !== undefined) out['resolved'] = resolved;
  return {
    data: out,
    metadata: { name: command['name'], command_type: commandType },
    sourceMessage: undefined,
    responseType: commandType === 1 ? 20 : 23,
  };
}

/** The components of a message, rows opened: every interactive component with a custom_id. */
function componentsOf(record: MessageRecord): JsonObject[] {
  const out: JsonObject[] = [];
  const walk = (items: unknown): void => {
    if (!Array.isArray(items)) return;
    for (const item of items.filter(isJsonObject)) {
      if (typeof item['custom_id'] === 'string') out.push(item);
      walk(item['components']);
    }
  };
  walk(record.components);
  return out;
}

/** True when the application sent this message: as its bot, or as an interaction response or webhook. */
function sentBy(record: MessageRecord, app: ApplicationRecord): boolean {
  return record.application_id === app.id || record.author_id === app.bot_user_id || record.webhook_id === app.id;
}

/** Checks a select menu's values: their count within min/max, and for a string select, known options. */
function checkValues(component: JsonObject, values: readonly string[], ids: NamedIds): void {
  const min = typeof component['min_values'] === 'number' ? component['min_values'] : 1;
  const max = typeof component['max_values'] === 'number' ? component['max_values'] : 1;
  if (values.length < min || values.length > max) throw field('data.values', `Between ${min} and ${max} values.`);
  if (component['type'] === 3) {
    const known = Array.isArray(component['options']) ? component['options'].filter(isJsonObject) : [];
    values.forEach((value, index) => {
      if (!known.some((option) => option['value'] === value)) throw field(`data.values.${index}`, 'Unknown option.');
    });
    return;
  }
  const bucket = { 5: ids.users, 6: ids.roles, 7: ids.mentionables, 8: ids.channels }[Number(component['type'])];
  for (const value of values) bucket?.add(value);
}

/**
 * Type 3 (component click): the message exists here, the application sent it, it carries an enabled
 * component with that custom_id and type, and a select's values fit it. 404 10008 for another message.
 */
export async function invokeComponent(
  scope: ChannelScope,
  caller: Caller,
  app: ApplicationRecord,
  body: InteractionCreateBody,
): Promise<Invocation> {
  if (body.message_id === undefined) throw field('message_id', 'This field is required');
  // An ephemeral message (shown to this user only, never stored) is clicked as any other.
  const now = scope.ctx.clock.now();
  const record =
    scope.interactions.ephemeral(body.message_id, caller.userId, app.id, now) ?? (await scope.message(body.message_id));
  if (!sentBy(record, app)) throw new UnknownEntityError('message');
  const { data } = body;
  const component = componentsOf(record).find((item) => item['custom_id'] === data.custom_id);
  if (!component) throw field('data.custom_id', 'The message has no component with this custom_id.');
  if (component['type'] !== data.component_type) throw field('data.component_type', 'The component has another type.');
  if (component['disabled'] === true) throw field('data.custom_id', 'The component is disabled.');
  const out: JsonObject = { custom_id: data.custom_id, component_type: data.component_type };
  if (data.component_type !== 2) {
    const ids = noIds();
    checkValues(component, data.values ?? [], ids);
    out['values'] = data.values ?? [];
    const resolved = await resolveIds(scope, caller, ids, undefined);
    if (resolved !== undefined) out['resolved'] = resolved;
  }
  return { data: out, metadata: { interacted_message_id: record.id }, sourceMessage: record, responseType: 0 };
}

/**
 * Type 5 (modal submit): `data.id` names a modal this application showed this user here, with the same
 * custom_id; each input is one of the modal's, required ones present, lengths within bounds.
 */
export async function invokeModal(
  scope: ChannelScope,
  userId: string,
  app: ApplicationRecord,
  body: InteractionCreateBody,
): Promise<Invocation> {
  const { data } = body;
  const shown = scope.interactions.modalOf(data.id ?? '', userId, scope.ctx.clock.now());
  const modal = shown?.modal;
  if (!shown || !modal || shown.applicationId !== app.id) throw new UnknownEntityError('interaction');
  if (data.custom_id !== modal.customId) throw field('data.custom_id', 'The modal has another custom_id.');
  const given = new Map<string, string>();
  (data.components ?? []).forEach((row, rowIndex) => {
    row.components.forEach((input, index) => {
      const at = `data.components.${rowIndex}.components.${index}`;
      const bounds = modal.inputs.get(input.custom_id);
      const value = input.value ?? '';
      if (!bounds) throw field(`${at}.custom_id`, 'The modal has no such input.');
      if (value.length > bounds.max || (value.length > 0 && value.length < bounds.min)) {
        throw field(`${at}.value`, 'The value has the wrong length.');
      }
      given.set(input.custom_id, value);
    });
  });
  for (const [customId, bounds] of modal.inputs) {
    if (bounds.required && (given.get(customId) ?? '') === '') {
      throw field('data.components', `The input "${customId}" is required.`);
    }
  }
  const sourceId = shown.sourceMessageId;
  const source =
    sourceId === null
      ? undefined
      : (scope.interactions.ephemeral(sourceId, userId, app.id, scope.ctx.clock.now()) ??
        (await scope.messages.get(scope.channel.id, sourceId)));
  return {
    data: { custom_id: modal.customId, components: data.components ?? [] },
    metadata: { triggering_interaction_metadata: shown.metadata },
    sourceMessage: source,
    responseType: 0,
  };
}

/** The live-interaction fields an invocation gives (the rest is filled by createInteraction). */
export function sourceIdOf(invocation: Invocation): LiveInteraction['sourceMessageId'] {
  return invocation.sourceMessage?.id ?? null;
}
