import { ValidationError } from '../domain/errors.js';

/**
 * Deepest nesting a body may have. Discord's deepest bodies (command options inside subcommand
 * groups, with choices and localizations) stay under 12 levels.
 */
export const MAX_JSON_DEPTH = 32;
/**
 * Most values (objects, arrays and scalars) a body may hold. Schemas cap each array far below this;
 * this bounds the work done on a body before any schema looks at it, unknown fields included.
 */
export const MAX_JSON_NODES = 50_000;

function tooLarge(code: string, message: string): ValidationError {
  return new ValidationError({ _errors: [{ code, message }] });
}

/**
 * Refuses a parsed JSON body nested deeper than MAX_JSON_DEPTH or holding more than MAX_JSON_NODES
 * values (400 50035), so that no later step (validation, serialization, cloning, storage) meets an
 * input that could overflow its stack or hold the event loop. Walks with an explicit stack and stops
 * before queueing past either limit, so the check itself costs at most MAX_JSON_NODES steps.
 */
export function checkJsonBounds(body: unknown): void {
  const pending: { value: unknown; depth: number }[] = [{ value: body, depth: 1 }];
  // Values seen or waiting to be seen: checked before a container's children are queued.
  let counted = 1;
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { value, depth } = next;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_JSON_DEPTH) {
      throw tooLarge('JSON_TOO_DEEP', `The body may nest at most ${MAX_JSON_DEPTH} levels deep.`);
    }
    const children = Array.isArray(value) ? (value as unknown[]) : Object.values(value);
    counted += children.length;
    if (counted > MAX_JSON_NODES) {
      throw tooLarge('JSON_TOO_LARGE', `The body may hold at most ${MAX_JSON_NODES} values.`);
    }
    for (const child of children) pending.push({ value: child, depth: depth + 1 });
  }
}
