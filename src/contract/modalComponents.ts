import { Type } from '@sinclair/typebox';
import { FieldErrorList, pathOf, type PathSegment } from './componentErrors.js';
import { ComponentType } from './componentRules.js';
import { boundedArray, closedObject, integer } from './wireTypes.js';

/**
 * Discord's modal limits: 1-5 action rows, each holding one text input; a text input's label 45, placeholder
 * 100, value and min/max length 4000, custom_id 1-100 (unique in the modal); style 1 short, 2 paragraph.
 */
const MAX_ROWS = 5;
const LABEL_MAX_LENGTH = 45;
const PLACEHOLDER_MAX_LENGTH = 100;
const TEXT_MAX_LENGTH = 4000;
const CUSTOM_ID_MAX_LENGTH = 100;
const TEXT_INPUT_STYLES = [1, 2];

/** A text input (type 4): the one component of a modal's action row. */
const textInput = closedObject({
  type: integer({ minimum: ComponentType.TextInput, maximum: ComponentType.TextInput }),
  custom_id: Type.String({ minLength: 1, maxLength: CUSTOM_ID_MAX_LENGTH }),
  style: integer({ minimum: 1, maximum: 2 }),
  label: Type.String({ minLength: 1, maxLength: LABEL_MAX_LENGTH }),
  min_length: Type.Optional(integer({ minimum: 0, maximum: TEXT_MAX_LENGTH })),
  max_length: Type.Optional(integer({ minimum: 1, maximum: TEXT_MAX_LENGTH })),
  required: Type.Optional(Type.Boolean()),
  value: Type.Optional(Type.String({ maxLength: TEXT_MAX_LENGTH })),
  placeholder: Type.Optional(Type.String({ maxLength: PLACEHOLDER_MAX_LENGTH })),
});

/** A modal's `components` (interaction callback type 9, `data.components`): 1-5 rows of one text input. */
export const ModalComponents = boundedArray(
  closedObject({
    type: integer({ minimum: ComponentType.ActionRow, maximum: ComponentType.ActionRow }),
    components: boundedArray(textInput, { minItems: 1, maxItems: 1 }),
  }),
  { minItems: 1, maxItems: MAX_ROWS },
);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

/**
 * Checks a modal's components (any JSON, schema-checked or not) by Discord's rules: 1-5 action rows, each
 * holding exactly one text input with its required custom_id, style and label, lengths in bounds,
 * min_length <= max_length, a value no longer than max_length, custom_ids unique. Throws ValidationError
 * (400 50035) naming each broken field under `at` (default `components`, e.g. `data.components` for a
 * callback body).
 */
export function validateModalComponents(components: unknown, at = 'components'): void {
  const errors = new FieldErrorList();
  const base = pathOf(at);
  if (!Array.isArray(components)) {
    errors.add(base, 'BASE_TYPE_ARRAY', 'Must be an array.');
  } else if (components.length < 1 || components.length > MAX_ROWS) {
    errors.add(base, 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MAX_ROWS} in length.`);
  } else {
    const customIds = new Set<string>();
    components.forEach((row: unknown, r) => {
      checkRow(row, [...base, r], errors, customIds);
    });
  }
  errors.throwIfAny();
}

function checkRow(row: unknown, path: PathSegment[], errors: FieldErrorList, customIds: Set<string>): void {
  if (!isObject(row)) {
    errors.add(path, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
    return;
  }
  if (row['type'] !== ComponentType.ActionRow) {
    errors.add([...path, 'type'], 'BASE_TYPE_CHOICES', 'Value must be one of (1).');
  }
  const items = row['components'];
  if (!Array.isArray(items) || items.length !== 1) {
    errors.add([...path, 'components'], 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 1 in length.');
    return;
  }
  checkTextInput(items[0], [...path, 'components', 0], errors, customIds);
}

function checkTextInput(input: unknown, path: PathSegment[], errors: FieldErrorList, customIds: Set<string>): void {
  if (!isObject(input)) {
    errors.add(path, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
    return;
  }
  const field = (name: string): PathSegment[] => [...path, name];
  if (input['type'] !== ComponentType.TextInput) {
    errors.add(field('type'), 'COMPONENT_TYPE_INVALID', 'Modals hold text inputs (type 4) only.');
  }
  checkString(input['custom_id'], field('custom_id'), errors, { min: 1, max: CUSTOM_ID_MAX_LENGTH, required: true });
  checkString(input['label'], field('label'), errors, { min: 1, max: LABEL_MAX_LENGTH, required: true });
  checkString(input['placeholder'], field('placeholder'), errors, { min: 0, max: PLACEHOLDER_MAX_LENGTH });
  checkString(input['value'], field('value'), errors, { min: 0, max: TEXT_MAX_LENGTH });
  const style = input['style'];
  if (style === undefined) errors.add(field('style'), 'BASE_TYPE_REQUIRED', 'This field is required');
  else if (!TEXT_INPUT_STYLES.includes(style as number)) {
    errors.add(field('style'), 'BASE_TYPE_CHOICES', 'Value must be one of (1, 2).');
  }
  const min = checkLength(input['min_length'], field('min_length'), errors, 0);
  const max = checkLength(input['max_length'], field('max_length'), errors, 1);
  if (min !== undefined && max !== undefined && min > max) {
    errors.add(field('min_length'), 'NUMBER_TYPE_MAX', `int value should be less than or equal to ${max}.`);
  }
  const value = input['value'];
  if (typeof value === 'string' && max !== undefined && value.length > max) {
    errors.add(field('value'), 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
  }
  if (input['required'] !== undefined && typeof input['required'] !== 'boolean') {
    errors.add(field('required'), 'BASE_TYPE_BOOLEAN', 'Must be either true or false.');
  }
  const customId = input['custom_id'];
  if (typeof customId !== 'string') return;
  if (customIds.has(customId)) {
    errors.add(field('custom_id'), 'COMPONENT_CUSTOM_ID_DUPLICATED', 'Component custom id cannot be duplicated');
  }
  customIds.add(customId);
}

function checkString(
  value: unknown,
  path: PathSegment[],
  errors: FieldErrorList,
  bounds: { min: number; max: number; required?: boolean },
): void {
  if (value === undefined || value === null) {
    if (bounds.required === true) errors.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
    return;
  }
  if (typeof value !== 'string') {
    errors.add(path, 'BASE_TYPE_STRING', 'Must be a string.');
    return;
  }
  if (value.length < bounds.min || value.length > bounds.max) {
    errors.add(path, 'BASE_TYPE_BAD_LENGTH', `Must be between ${bounds.min} and ${bounds.max} in length.`);
  }
}

/** A min_length / max_length in [floor, 4000], or undefined when absent (an error is recorded when invalid). */
function checkLength(value: unknown, path: PathSegment[], errors: FieldErrorList, floor: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isInteger(value) || value < floor || value > TEXT_MAX_LENGTH) {
    errors.add(path, 'NUMBER_TYPE_MAX', `int value should be between ${floor} and ${TEXT_MAX_LENGTH}.`);
    return undefined;
  }
  return value;
}
