import { arr, bool, int, nullable, obj, snowflake, str } from './builders.js';
import { NAME_MAX_LENGTH } from './discordLimits.js';

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
const componentEmoji = obj({ id: nullable(snowflake()), name: nullable(str({ maxLength: 32 })), animated: bool() });

const selectOption = obj(
  {
    label: str({ maxLength: NAME_MAX_LENGTH }),
    value: str({ maxLength: NAME_MAX_LENGTH }),
    description: nullable(str({ maxLength: NAME_MAX_LENGTH })),
    emoji: nullable(componentEmoji),
    default: bool(),
  },
  ['label', 'value'],
);

/** A default of an auto-populated select menu: a user, role or channel by id. */
const selectDefault = obj({ id: snowflake(), type: str({ maxLength: 16 }) }, ['id', 'type']);

/**
 * One component inside an action row: button (2), select menus (3, 5..8) or text input (4). One flat
 * shape holding the fields of each kind (the schemas use no oneOf): a field of another kind is simply unused.
 */
const rowItem = obj(
  {
    type: int({ minimum: 2, maximum: 8 }),
    custom_id: str({ maxLength: CUSTOM_ID_MAX_LENGTH }),
    style: int(),
    label: nullable(str({ maxLength: 80 })),
    emoji: nullable(componentEmoji),
    url: str({ maxLength: 512 }),
    sku_id: snowflake(),
    disabled: bool(),
    placeholder: nullable(str({ maxLength: 150 })),
    min_values: int({ minimum: 0, maximum: MAX_SELECT_OPTIONS }),
    max_values: int({ minimum: 1, maximum: MAX_SELECT_OPTIONS }),
    options: arr(selectOption, { maxItems: MAX_SELECT_OPTIONS }),
    channel_types: arr(int(), { maxItems: 32 }),
    default_values: arr(selectDefault, { maxItems: MAX_SELECT_OPTIONS }),
    min_length: int({ minimum: 0, maximum: 4000 }),
    max_length: int({ minimum: 1, maximum: 4000 }),
    required: bool(),
    value: str({ maxLength: 4000 }),
  },
  ['type'],
);

/** An action row (type 1) of at most 5 components. */
const actionRow = obj({ type: int({ minimum: 1, maximum: 1 }), components: arr(rowItem, { maxItems: MAX_PER_ROW }) }, [
  'type',
]);

/** A message's `components`: at most 5 action rows. */
export const MessageComponents = arr(actionRow, { maxItems: MAX_ROWS });
