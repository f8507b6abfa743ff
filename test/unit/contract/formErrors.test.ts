import assert from 'node:assert/strict';
import type { ErrorObject } from 'ajv';
import { formErrors } from '../../../src/contract/formErrors.js';

/** A minimal ajv error; verbose fields (parentSchema, data) only where a case needs them. */
function ajvError(
  keyword: string,
  instancePath: string,
  params: Record<string, unknown>,
  extra: Partial<ErrorObject> = {},
): ErrorObject {
  return { keyword, instancePath, schemaPath: `#/${keyword}`, params, ...extra };
}

const REQUIRED = { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };

describe('formErrors', () => {
  it('returns an empty tree for no errors', () => {
    assert.deepEqual(formErrors([]), {});
  });

  it('names the missing property itself for a required error', () => {
    const tree = formErrors([ajvError('required', '/embeds/0/fields/1', { missingProperty: 'name' })]);
    assert.deepEqual(tree, { embeds: { '0': { fields: { '1': { name: { _errors: [REQUIRED] } } } } } });
  });

  it('puts a root error directly under _errors', () => {
    assert.deepEqual(formErrors([ajvError('type', '', { type: 'object' }, { data: null })]), {
      _errors: [{ code: 'MODEL_TYPE_CONVERT', message: 'Only dictionaries may be used in a ModelType' }],
    });
  });

  it('unescapes JSON-pointer segments (~1 is "/", ~0 is "~")', () => {
    const tree = formErrors([ajvError('type', '/headers/a~1b~0c', { type: 'string' }, { data: 1 })]);
    assert.deepEqual(Object.keys(tree['headers'] ?? {}), ['a/b~c']);
  });

  it('keeps one error per field and both a parent error and its children', () => {
    const tree = formErrors([
      ajvError('type', '/nonce', { type: ['string', 'integer'] }, { data: true }),
      ajvError('maxLength', '/nonce', { limit: 25 }),
      ajvError('maxItems', '/embeds', { limit: 10 }),
      ajvError('required', '/embeds/0/footer', { missingProperty: 'text' }),
    ]);
    assert.deepEqual(tree, {
      nonce: { _errors: [{ code: 'BASE_TYPE_STRING', message: 'Must be a string or integer.' }] },
      embeds: {
        _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 10 or fewer in length.' }],
        '0': { footer: { text: { _errors: [REQUIRED] } } },
      },
    });
  });

  describe('length errors', () => {
    it('gives BASE_TYPE_BAD_LENGTH with both bounds when the schema has both', () => {
      const parentSchema = { type: 'string', minLength: 2, maxLength: 32 };
      assert.deepEqual(formErrors([ajvError('maxLength', '/username', { limit: 32 }, { parentSchema })]), {
        username: { _errors: [{ code: 'BASE_TYPE_BAD_LENGTH', message: 'Must be between 2 and 32 in length.' }] },
      });
    });

    it('gives BASE_TYPE_MIN_LENGTH when only a minimum exists', () => {
      assert.deepEqual(formErrors([ajvError('minItems', '/ids', { limit: 2 }, { parentSchema: { minItems: 2 } })]), {
        ids: { _errors: [{ code: 'BASE_TYPE_MIN_LENGTH', message: 'Must be 2 or more in length.' }] },
      });
    });
  });

  describe('leaf codes', () => {
    const cases: readonly [string, ErrorObject, { code: string; message: string }][] = [
      [
        'integer',
        ajvError('type', '/x', { type: 'integer' }, { data: 1.5 }),
        { code: 'NUMBER_TYPE_COERCE', message: 'Value "1.5" is not int.' },
      ],
      [
        'number',
        ajvError('type', '/x', { type: 'number' }, { data: 'a' }),
        { code: 'NUMBER_TYPE_COERCE', message: 'Value "a" is not a number.' },
      ],
      [
        'nullable string',
        ajvError('type', '/x', { type: ['string', 'null'] }, { data: 1 }),
        { code: 'BASE_TYPE_STRING', message: 'Must be a string.' },
      ],
      [
        'boolean',
        ajvError('type', '/x', { type: 'boolean' }, { data: 'yes' }),
        { code: 'BASE_TYPE_BOOLEAN', message: 'Must be either true or false.' },
      ],
      [
        'array',
        ajvError('type', '/x', { type: 'array' }, { data: {} }),
        { code: 'BASE_TYPE_ARRAY', message: 'Must be an array.' },
      ],
      [
        'enum',
        ajvError('enum', '/x', { allowedValues: ['dark', 'light'] }),
        { code: 'BASE_TYPE_CHOICES', message: 'Value must be one of (dark, light).' },
      ],
      [
        'const',
        ajvError('const', '/x', { allowedValue: true }),
        { code: 'BASE_TYPE_CHOICES', message: 'Value must be one of (true).' },
      ],
      [
        'email',
        ajvError('format', '/x', { format: 'email' }, { data: 'a' }),
        { code: 'EMAIL_TYPE_INVALID_EMAIL', message: 'Not a well formed email address.' },
      ],
      [
        'date-time',
        ajvError('format', '/x', { format: 'date-time' }, { data: 'soon' }),
        { code: 'DATE_TIME_TYPE_PARSE', message: 'Could not parse soon. Should be ISO8601.' },
      ],
      [
        'pattern',
        ajvError('pattern', '/x', { pattern: '^[0-9]+$' }),
        { code: 'STRING_TYPE_REGEX', message: 'String value did not match validation regex.' },
      ],
      [
        'unknown keyword',
        ajvError('uniqueItems', '/x', {}, { message: 'must be unique' }),
        { code: 'BASE_TYPE_INVALID', message: 'must be unique' },
      ],
    ];
    for (const [title, error, leaf] of cases) {
      it(`maps ${title} to ${leaf.code}`, () => {
        assert.deepEqual(formErrors([error]), { x: { _errors: [leaf] } });
      });
    }
  });

  it('cuts a long echoed value to 100 characters', () => {
    const tree = formErrors([ajvError('type', '/x', { type: 'integer' }, { data: '9'.repeat(500) })]);
    assert.deepEqual(tree, {
      x: { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: `Value "${'9'.repeat(100)}…" is not int.` }] },
    });
  });
});
