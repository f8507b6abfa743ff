import { ValidationError, type FieldErrorTree } from '../domain/errors.js';
import { insertFieldError, MAX_FIELD_ERRORS } from './formErrors.js';

/** One segment of a body path: a property name or an array index. */
export type PathSegment = string | number;

/**
 * Collects Discord field errors found by checks that run after the schema (component rules), so one
 * answer names every broken field, as a schema failure does: at most one leaf per field and at most
 * MAX_FIELD_ERRORS fields. `throwIfAny` raises the 400 50035 with the tree.
 */
export class FieldErrorList {
  readonly #tree: FieldErrorTree = {};
  readonly #seen = new Set<string>();

  /** Records `code`/`message` at `path` unless that field already has an error or the list is full. */
  add(path: readonly PathSegment[], code: string, message: string): void {
    const key = path.join('.');
    if (this.#seen.has(key) || this.#seen.size >= MAX_FIELD_ERRORS) return;
    this.#seen.add(key);
    insertFieldError(this.#tree, path.map(String), { code, message });
  }

  get empty(): boolean {
    return this.#seen.size === 0;
  }

  /** Throws ValidationError (400 50035) holding every recorded error; returns when there is none. */
  throwIfAny(): void {
    if (!this.empty) throw new ValidationError(this.#tree);
  }
}

/** A body path given as a dotted prefix (`data.components`) turned into segments. */
export function pathOf(prefix: string): PathSegment[] {
  return prefix === '' ? [] : prefix.split('.');
}
