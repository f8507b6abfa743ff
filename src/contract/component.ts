import { Type } from '@sinclair/typebox';
import { NAME_MAX_LENGTH } from './discordLimits.js';
import { boundedArray, closedObject, integer, nullable, snowflake } from './wireTypes.js';

/**
 * Discord's message component limits: 5 action rows of 5 components; a button label 80, custom_id 100,
 * link 512; a select menu placeholder 150 and 25 options (label, value, description 100 each); a text
 * input value 4000. The message stores components as given, so each field is bounded here.
 */
const MAX_ROWS = 5;
const MAX_PER_ROW = 5;
const MAX_SELECT_OPTIONS = 25;
const CUSTOM_ID_MAX_LENGTH = 100;

/** A component emoji: a custom one by id, or a unicode one by name. */
const componentEmoji = closedObject({
  id: Type.Optional(nullable(snowflake())),
  name: Type.Optional(nullable(Type.String({ maxLength: 32 }))),
  animated: Type.Optional(Type.Boolean()),
});

const selectOption = closedObject({
  label: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH }),
  value: Type.String({ minLength: 1, maxLength: NAME_MAX_LENGTH }),
  description: Type.Optional(nullable(Type.String({ maxLength: NAME_MAX_LENGTH }))),
  emoji: Type.Optional(nullable(componentEmoji)),
  default: Type.Optional(Type.Boolean()),
});

/** A default of an auto-populated select menu: a user, role or channel by id. */
const selectDefault = closedObject({ id: snowflake(), type: Type.String({ maxLength: 16 }) });

/**
 * One component inside an action row: button (2), select menus (3, 5..8) or text input (4). One flat
 * shape holding the fields of each kind (the schemas use no oneOf); checkMessageComponents (componentRules.ts)
 * then applies each kind's rules and keeps only its fields.
 */
const rowItem = closedObject({
  type: integer({ minimum: 2, maximum: 8 }),
  custom_id: Type.Optional(Type.String({ minLength: 1, maxLength: CUSTOM_ID_MAX_LENGTH })),
  style: Type.Optional(integer()),
  label: Type.Optional(nullable(Type.String({ maxLength: 80 }))),
  emoji: Type.Optional(nullable(componentEmoji)),
  url: Type.Optional(Type.String({ maxLength: 512 })),
  sku_id: Type.Optional(snowflake()),
  disabled: Type.Optional(Type.Boolean()),
  placeholder: Type.Optional(nullable(Type.String({ maxLength: 150 }))),
  min_values: Type.Optional(integer({ minimum: 0, maximum: MAX_SELECT_OPTIONS })),
  max_values: Type.Optional(integer({ minimum: 1, maximum: MAX_SELECT_OPTIONS })),
  options: Type.Optional(boundedArray(selectOption, { maxItems: MAX_SELECT_OPTIONS })),
  channel_types: Type.Optional(boundedArray(integer(), { maxItems: 32 })),
  default_values: Type.Optional(boundedArray(selectDefault, { maxItems: MAX_SELECT_OPTIONS })),
  min_length: Type.Optional(integer({ minimum: 0, maximum: 4000 })),
  max_length: Type.Optional(integer({ minimum: 1, maximum: 4000 })),
  required: Type.Optional(Type.Boolean()),
  value: Type.Optional(Type.String({ maxLength: 4000 })),
});

/** An action row (type 1) of at most 5 components. */
const actionRow = closedObject({
  type: integer({ minimum: 1, maximum: 1 }),
  components: Type.Optional(boundedArray(rowItem, { maxItems: MAX_PER_ROW })),
});

/** A message's `components`: at most 5 action rows. */
export const MessageComponents = boundedArray(actionRow, { maxItems: MAX_ROWS });
