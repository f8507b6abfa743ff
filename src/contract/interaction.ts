import { Type, type Static } from '@sinclair/typebox';
import { MessageComponents } from './component.js';
import { componentsFromSender, type ComponentSender } from './componentSenders.js';
import { validateModalComponents } from './modalComponents.js';
import { MessageEditSchema } from './message.js';
import { boundedArray, closedObject, integer, oneOfTypes, snowflake } from './wireTypes.js';

/** Discord's caps: 25 options per level, 25 select values and 25 autocomplete choices. */
const MODAL_RESPONSE = 9;
const MAX_ITEMS = 25;

/** An option's value as a client sends it: a string (also a snowflake), a number or a boolean. */
const optionValue = oneOfTypes(['string', 'number', 'boolean'], { maxLength: 6000 });

/** One option of an invoked command at a given level; `focused` marks the one autocomplete asks about. */
const optionFields = {
  name: Type.String({ minLength: 1, maxLength: 32 }),
  type: integer({ minimum: 1, maximum: 11 }),
  value: Type.Optional(optionValue),
  focused: Type.Optional(Type.Boolean()),
};
const leafOption = closedObject(optionFields);
const groupedOption = closedObject({
  ...optionFields,
  options: Type.Optional(boundedArray(leafOption, { maxItems: MAX_ITEMS })),
});
const topOption = closedObject({
  ...optionFields,
  options: Type.Optional(boundedArray(groupedOption, { maxItems: MAX_ITEMS })),
});

/** A submitted text input: its custom_id and value (type 4), inside an action row. */
const submittedRow = closedObject({
  type: integer({ minimum: 1, maximum: 1 }),
  components: boundedArray(
    closedObject({
      type: integer({ minimum: 4, maximum: 4 }),
      custom_id: Type.String({ maxLength: 100 }),
      value: Type.Optional(Type.String({ maxLength: 4000 })),
    }),
    { maxItems: 5 },
  ),
});

/**
 * `data` of POST /interactions, one flat shape for the four types: a command (and autocomplete) names
 * its `id`, `name`, `type`, `options` and `target_id`; a component click its `component_type`,
 * `custom_id` and `values`; a modal submission the modal's `id`, `custom_id` and `components`.
 */
const interactionData = closedObject({
  id: Type.Optional(snowflake()),
  name: Type.Optional(Type.String({ maxLength: 32 })),
  type: Type.Optional(integer({ minimum: 1, maximum: 4 })),
  version: Type.Optional(snowflake()),
  guild_id: Type.Optional(snowflake()),
  target_id: Type.Optional(snowflake()),
  options: Type.Optional(boundedArray(topOption, { maxItems: MAX_ITEMS })),
  component_type: Type.Optional(integer({ minimum: 2, maximum: 8 })),
  custom_id: Type.Optional(Type.String({ maxLength: 100 })),
  values: Type.Optional(boundedArray(Type.String({ maxLength: 100 }), { maxItems: MAX_ITEMS })),
  components: Type.Optional(boundedArray(submittedRow, { maxItems: 5 })),
});

/**
 * POST /interactions: what Discord's client sends to invoke a command (2), click a component (3),
 * ask autocomplete (4) or submit a modal (5), with the session and nonce its dispatches echo back.
 */
export const InteractionCreateSchema = closedObject({
  type: integer({ minimum: 2, maximum: 5 }),
  application_id: snowflake(),
  channel_id: snowflake(),
  guild_id: Type.Optional(snowflake()),
  session_id: Type.Optional(Type.String({ maxLength: 128 })),
  nonce: Type.Optional(oneOfTypes(['string', 'integer'], { maxLength: 25 })),
  message_id: Type.Optional(snowflake()),
  message_flags: Type.Optional(integer()),
  analytics_location: Type.Optional(Type.String({ maxLength: 64 })),
  data: interactionData,
});
/** Validated InteractionCreateSchema body. */
export type InteractionCreateBody = Static<typeof InteractionCreateSchema>;
/** One option of an invoked command, at any level. */
export type InvokedOption = Static<typeof topOption>;

/** An autocomplete choice: a name and a string or number value. */
const choice = closedObject({
  name: Type.String({ minLength: 1, maxLength: 100 }),
  value: oneOfTypes(['string', 'number'], { maxLength: 100 }),
});

/**
 * `data` of an interaction response: a message (types 4 and 7; flags only for 5), autocomplete
 * `choices` (8), or a modal's `custom_id`, `title` and `components` (9).
 */
const callbackData = closedObject({
  // payload_json is read by the body parser (multipart) before validation: never part of the data.
  ...Type.Omit(MessageEditSchema, ['payload_json']).properties,
  choices: Type.Optional(boundedArray(choice, { maxItems: MAX_ITEMS })),
  custom_id: Type.Optional(Type.String({ maxLength: 100 })),
  title: Type.Optional(Type.String({ maxLength: 45 })),
  components: Type.Optional(MessageComponents),
});

/** POST /interactions/{id}/{token}/callback body: the response type and its data. */
export const InteractionCallbackSchema = closedObject({
  type: integer({ minimum: 1, maximum: 12 }),
  data: Type.Optional(callbackData),
});
/** Validated InteractionCallbackSchema body. */
export type InteractionCallbackBody = Static<typeof InteractionCallbackSchema>;

/**
 * Applies Discord's component rules to a callback body an application sent: a modal's (type 9) text
 * inputs, or a message's components as an application may send them (400 50035 naming the field).
 */
export function checkCallbackComponents(body: InteractionCallbackBody): InteractionCallbackBody {
  if (body.data === undefined) return body;
  if (body.type === MODAL_RESPONSE) validateModalComponents(body.data.components, 'data.components');
  else componentsFromSender(body.data, APPLICATION_SENDER);
  return body;
}

/** The sender of interaction responses and followups: an application, which may send any component. */
export const APPLICATION_SENDER: ComponentSender = { kind: 'application' };

const LABEL = 18;
const TEXT_INPUT = 4;
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A modal callback (type 9) whose text inputs come in label components (type 18, the form discord.js now
 * builds) as the action rows the modal schema and clients take: each label holding a text input becomes
 * a row of that input, labelled with the label's text. Anything else is returned as it is (and the schema
 * and component rules judge it). Runs on the raw body, before validation.
 */
export function labelsAsRows(raw: unknown): unknown {
  if (!isObject(raw) || raw['type'] !== MODAL_RESPONSE || !isObject(raw['data'])) return raw;
  const components = raw['data']['components'];
  if (!Array.isArray(components)) return raw;
  const rows = components.map((item: unknown) => {
    if (!isObject(item) || item['type'] !== LABEL) return item;
    const input = item['component'];
    if (!isObject(input) || input['type'] !== TEXT_INPUT) return item;
    return { type: 1, components: [{ ...input, label: input['label'] ?? item['label'] }] };
  });
  return { ...raw, data: { ...raw['data'], components: rows } };
}
