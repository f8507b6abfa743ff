import type { Static } from '@sinclair/typebox';
import type { MessageComponents } from './component.js';
import { FieldErrorList, type PathSegment } from './componentErrors.js';

/** Discord's component types (message components; 4 is valid in modals only). */
export const ComponentType = {
  ActionRow: 1,
  Button: 2,
  StringSelect: 3,
  TextInput: 4,
  UserSelect: 5,
  RoleSelect: 6,
  MentionableSelect: 7,
  ChannelSelect: 8,
} as const;

/** Button styles: 1-4 send an interaction (custom_id), 5 opens a link (url), 6 buys a SKU (sku_id). */
export const ButtonStyle = { Primary: 1, Secondary: 2, Success: 3, Danger: 4, Link: 5, Premium: 6 } as const;

/** Validated message components (the schema's flat shape); one row item. */
export type MessageComponentRows = Static<typeof MessageComponents>;
type RowItem = NonNullable<MessageComponentRows[number]['components']>[number];

/** Most components a row holds (buttons); a select menu fills a row alone. */
const ROW_WIDTH = 5;

/** The default_values types an auto-populated select accepts, by select type. */
const DEFAULT_VALUE_TYPES: Readonly<Record<number, readonly string[]>> = {
  [ComponentType.UserSelect]: ['user'],
  [ComponentType.RoleSelect]: ['role'],
  [ComponentType.MentionableSelect]: ['user', 'role'],
  [ComponentType.ChannelSelect]: ['channel'],
};

/** The fields each kind keeps; the schema's flat shape lets any field through, the message stores only these. */
const BUTTON_FIELDS = ['type', 'style', 'label', 'emoji', 'custom_id', 'url', 'sku_id', 'disabled'];
const SELECT_FIELDS = ['type', 'custom_id', 'placeholder', 'min_values', 'max_values', 'disabled'];
const FIELDS: Readonly<Record<number, readonly string[]>> = {
  [ComponentType.Button]: BUTTON_FIELDS,
  [ComponentType.StringSelect]: [...SELECT_FIELDS, 'options'],
  [ComponentType.UserSelect]: [...SELECT_FIELDS, 'default_values'],
  [ComponentType.RoleSelect]: [...SELECT_FIELDS, 'default_values'],
  [ComponentType.MentionableSelect]: [...SELECT_FIELDS, 'default_values'],
  [ComponentType.ChannelSelect]: [...SELECT_FIELDS, 'default_values', 'channel_types'],
};

/** What the sender may put in a message: everything (bots, applications) or link buttons only. */
export interface ComponentPolicy {
  /** False for a webhook no application owns: only non-interactive components (link buttons). */
  readonly interactive: boolean;
  /** Body path of the components array in error trees (default `components`). */
  readonly at?: readonly PathSegment[];
}

/** True for a component a user can interact with (anything but a link button). */
export function isInteractive(component: { type: number; style?: number | undefined }): boolean {
  return !(component.type === ComponentType.Button && component.style === ButtonStyle.Link);
}

/**
 * Checks a schema-valid message `components` array against Discord's rules the schema cannot state (what a
 * row holds, each kind's required fields, custom_id unique in the message) and returns it with each
 * component reduced to its kind's fields; throws ValidationError (400 50035) naming every broken field,
 * e.g. `components.0.components.1.custom_id`.
 */
export function checkMessageComponents(rows: MessageComponentRows, policy: ComponentPolicy): MessageComponentRows {
  const errors = new FieldErrorList();
  const at = policy.at ?? ['components'];
  const customIds = new Set<string>();
  rows.forEach((row, r) => {
    const items = row.components ?? [];
    const rowPath = [...at, r, 'components'];
    if (items.length === 0)
      errors.add(rowPath, 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${ROW_WIDTH} in length.`);
    const selects = items.filter((item) => item.type !== ComponentType.Button).length;
    if (selects > 0 && items.length > 1) {
      errors.add(rowPath, 'COMPONENT_LAYOUT_WIDTH_EXCEEDED', 'The specified component exceeds the maximum width');
    }
    items.forEach((item, i) => {
      const path = [...rowPath, i];
      checkItem(item, path, errors);
      if (!policy.interactive && isInteractive(item)) {
        errors.add(path, 'COMPONENT_INTERACTIVE_NOT_ALLOWED', 'This webhook may only send link buttons');
      }
      if (item.custom_id === undefined) return;
      if (customIds.has(item.custom_id)) {
        errors.add(
          [...path, 'custom_id'],
          'COMPONENT_CUSTOM_ID_DUPLICATED',
          'Component custom id cannot be duplicated',
        );
      }
      customIds.add(item.custom_id);
    });
  });
  errors.throwIfAny();
  return rows.map((row) => ({ type: row.type, components: (row.components ?? []).map(keepOwnFields) }));
}

/** The item with only its kind's fields. */
function keepOwnFields(item: RowItem): RowItem {
  const keep = FIELDS[item.type] ?? [];
  return Object.fromEntries(Object.entries(item).filter(([key]) => keep.includes(key))) as RowItem;
}

function checkItem(item: RowItem, path: PathSegment[], errors: FieldErrorList): void {
  switch (item.type) {
    case ComponentType.Button:
      checkButton(item, path, errors);
      return;
    case ComponentType.TextInput:
      errors.add([...path, 'type'], 'COMPONENT_TYPE_INVALID', 'Text inputs are only valid in modals.');
      return;
    default:
      checkSelect(item, path, errors);
  }
}

const required = (errors: FieldErrorList, path: PathSegment[], field: string): void => {
  errors.add([...path, field], 'BASE_TYPE_REQUIRED', 'This field is required');
};
const notAllowed = (errors: FieldErrorList, path: PathSegment[], field: string, why: string): void => {
  errors.add([...path, field], 'COMPONENT_FIELD_NOT_ALLOWED', why);
};

/** Styles 1-4 need a custom_id and no url; 5 a url and no custom_id; 6 a sku_id and nothing else. */
function checkButton(button: RowItem, path: PathSegment[], errors: FieldErrorList): void {
  const { style } = button;
  if (style === undefined) {
    required(errors, path, 'style');
    return;
  }
  if (!Object.values(ButtonStyle).includes(style as 1)) {
    errors.add([...path, 'style'], 'BASE_TYPE_CHOICES', 'Value must be one of (1, 2, 3, 4, 5, 6).');
    return;
  }
  if (style === ButtonStyle.Premium) {
    if (button.sku_id === undefined) required(errors, path, 'sku_id');
    for (const field of ['custom_id', 'url', 'label', 'emoji'] as const) {
      if (button[field] != null) notAllowed(errors, path, field, 'Premium buttons cannot have this field.');
    }
    return;
  }
  if (style === ButtonStyle.Link) {
    if (button.url === undefined) {
      errors.add([...path, 'url'], 'BUTTON_COMPONENT_URL_REQUIRED', 'A url is required');
    } else if (!/^(https?|discord):\/\/\S+$/i.test(button.url)) {
      errors.add([...path, 'url'], 'URL_TYPE_INVALID_SCHEME', 'Scheme must be one of (http, https, discord).');
    }
    if (button.custom_id !== undefined) notAllowed(errors, path, 'custom_id', 'Link buttons cannot have a custom id.');
  } else {
    if (button.custom_id === undefined) {
      errors.add([...path, 'custom_id'], 'BUTTON_COMPONENT_CUSTOM_ID_REQUIRED', 'A custom id required');
    }
    if (button.url !== undefined) notAllowed(errors, path, 'url', 'Only link buttons can have a url.');
  }
  if (button.sku_id !== undefined) notAllowed(errors, path, 'sku_id', 'Only premium buttons can have a sku id.');
  if ((button.label ?? '') === '' && button.emoji == null) {
    errors.add([...path, 'label'], 'BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED', 'A label or an emoji is required');
  }
}

/** Every select needs a custom_id and min_values <= max_values; each kind has its own source of choices. */
function checkSelect(select: RowItem, path: PathSegment[], errors: FieldErrorList): void {
  if (select.custom_id === undefined) required(errors, path, 'custom_id');
  const min = select.min_values ?? 1;
  const max = select.max_values ?? 1;
  if (min > max) {
    errors.add([...path, 'min_values'], 'SELECT_COMPONENT_MIN_MAX_VALUES', 'min_values must be less than max_values.');
  }
  if (select.type !== ComponentType.ChannelSelect && select.channel_types !== undefined) {
    notAllowed(errors, path, 'channel_types', 'Only channel selects can have channel types.');
  }
  if (select.type === ComponentType.StringSelect) {
    checkOptions(select, path, errors, max);
    if (select.default_values !== undefined) {
      notAllowed(errors, path, 'default_values', 'String selects take defaults in their options.');
    }
    return;
  }
  if (select.options !== undefined) notAllowed(errors, path, 'options', 'Only string selects have options.');
  const allowed = DEFAULT_VALUE_TYPES[select.type] ?? [];
  const defaults = select.default_values ?? [];
  defaults.forEach((value, index) => {
    if (!allowed.includes(value.type)) {
      errors.add(
        [...path, 'default_values', index, 'type'],
        'BASE_TYPE_CHOICES',
        `Value must be one of (${allowed.join(', ')}).`,
      );
    }
  });
  if (defaults.length > max) {
    errors.add([...path, 'default_values'], 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
  }
}

/** A string select lists 1-25 options with distinct values, at most max_values of them default. */
function checkOptions(select: RowItem, path: PathSegment[], errors: FieldErrorList, max: number): void {
  const options = select.options ?? [];
  if (options.length === 0) {
    errors.add([...path, 'options'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 25 in length.');
    return;
  }
  if (max > options.length) {
    errors.add(
      [...path, 'max_values'],
      'NUMBER_TYPE_MAX',
      `int value should be less than or equal to ${options.length}.`,
    );
  }
  const values = new Set<string>();
  options.forEach((option, index) => {
    if (values.has(option.value)) {
      errors.add(
        [...path, 'options', index, 'value'],
        'SELECT_COMPONENT_OPTION_VALUE_DUPLICATED',
        'Option values must be unique',
      );
    }
    values.add(option.value);
  });
  if (options.filter((option) => option.default === true).length > max) {
    errors.add([...path, 'options'], 'SELECT_COMPONENT_TOO_MANY_DEFAULTS', 'More options are default than max_values.');
  }
}
