import assert from 'node:assert/strict';
import { ValidationError, type FieldErrorTree } from '../../../src/domain/errors.js';
import type { SchemaName } from '../../../src/contract/index.js';
import { validate } from '../../../src/contract/validate.js';

/** Asserts that `body` fails schema `name` with a ValidationError and returns its Discord errors tree. */
export function expectInvalid(name: SchemaName, body: unknown): FieldErrorTree {
  let thrown: unknown;
  assert.throws(
    () => validate(name, body),
    (error: unknown) => {
      thrown = error;
      return error instanceof ValidationError;
    },
  );
  return (thrown as ValidationError).fieldErrors;
}

/** Asserts that `body` passes schema `name` and comes back as the very same value. */
export function expectValid(name: SchemaName, body: unknown): void {
  assert.equal(validate(name, body), body);
}

/** A one-leaf tree `{ a: { b: { _errors: [{ code, message }] } } }` for the dotted path "a.b" ("" = the root). */
export function leafTree(path: string, code: string, message: string): FieldErrorTree {
  const leaf = { _errors: [{ code, message }] };
  if (path === '') return leaf;
  return path
    .split('.')
    .reverse()
    .reduce<FieldErrorTree>((child, key) => ({ [key]: child }), leaf);
}
