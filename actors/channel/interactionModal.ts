import { ValidationError } from '../../src/domain/errors.js';
import { isJsonObject, type JsonObject } from '../../src/domain/jsonValue.js';
import type { InteractionCallbackBody } from '../../src/contract/interaction.js';
import type { PendingModal } from './InteractionRegistry.js';

const TEXT_INPUT = 4;
const MAX_VALUE_LENGTH = 4000;

const field = (path: string, message: string): ValidationError => ValidationError.field(path, 'MODAL_INVALID', message);

/**
 * A callback's modal (type 9): custom_id and title required, 1-5 action rows each holding one text
 * input (type 4) with a custom_id, label and style 1 or 2, custom_ids unique. Returns what the user's
 * client is sent (INTERACTION_MODAL_CREATE, under the modal's new id) and what its submission is checked
 * against. This is the minimal check; Discord's full component rules live with the component schemas.
 */
export function checkModal(
  data: InteractionCallbackBody['data'],
  modalId: string,
): { json: JsonObject; pending: { readonly id: string } & PendingModal } {
  if (data?.custom_id === undefined || data.custom_id === '') throw field('data.custom_id', 'This field is required');
  if (data.title === undefined || data.title === '') throw field('data.title', 'This field is required');
  const rows = data.components ?? [];
  if (rows.length < 1 || rows.length > 5) throw field('data.components', 'Must be between 1 and 5 in length.');
  const inputs = new Map<string, { required: boolean; min: number; max: number }>();
  rows.forEach((row, index) => {
    const at = `data.components.${index}.components`;
    const items = row.components ?? [];
    const [input] = items;
    if (items.length !== 1 || !isJsonObject(input) || input.type !== TEXT_INPUT) {
      throw field(at, 'A modal row holds exactly one text input.');
    }
    if (input.custom_id === undefined || input.custom_id === '')
      throw field(`${at}.0.custom_id`, 'This field is required');
    if (input.label === undefined || input.label === null || input.label === '')
      throw field(`${at}.0.label`, 'This field is required');
    if (input.style !== 1 && input.style !== 2) throw field(`${at}.0.style`, 'Must be 1 (short) or 2 (paragraph).');
    if (inputs.has(input.custom_id)) throw field(`${at}.0.custom_id`, 'Component custom id cannot be duplicated');
    const min = input.min_length ?? 0;
    const max = input.max_length ?? MAX_VALUE_LENGTH;
    if (min > max) throw field(`${at}.0.min_length`, 'Must be at most max_length.');
    inputs.set(input.custom_id, { required: input.required ?? true, min, max });
  });
  const json = { id: modalId, custom_id: data.custom_id, title: data.title, components: rows };
  return { json, pending: { id: modalId, customId: data.custom_id, inputs } };
}
