import assert from 'node:assert/strict';
import { ValidationError } from '../../../src/domain/errors.js';
import { checkOptions, definitionsOf, noIds } from '../../../actors/channel/interactionOptions.js';

const COMMAND_OPTIONS = definitionsOf([
  { type: 3, name: 'word', description: 'w', required: true, min_length: 2, max_length: 5 },
  { type: 4, name: 'count', description: 'c', min_value: 1, max_value: 3 },
  { type: 3, name: 'color', description: 'c', choices: [{ name: 'Red', value: 'red' }], autocomplete: false },
  { type: 6, name: 'who', description: 'u' },
  { type: 3, name: 'query', description: 'q', autocomplete: true },
]);

/** The dotted field paths a ValidationError names. */
function pathsOf(error: unknown): string {
  assert.ok(error instanceof ValidationError);
  return JSON.stringify(error.fieldErrors);
}

describe('checkOptions', () => {
  it('accepts options that match their definitions and collects the ids to resolve', () => {
    const ids = noIds();
    const focused = checkOptions(
      COMMAND_OPTIONS,
      [
        { name: 'word', type: 3, value: 'abc' },
        { name: 'count', type: 4, value: 2 },
        { name: 'who', type: 6, value: '123456789012345678' },
      ],
      'data.options',
      ids,
    );
    assert.equal(focused, 0);
    assert.deepEqual([...ids.users], ['123456789012345678']);
  });

  it('refuses a wrong value type, an unknown name, a value out of bounds or choices, and a missing required option', () => {
    const cases = [
      [{ name: 'word', type: 3, value: 7 }],
      [
        { name: 'word', type: 3, value: 'abc' },
        { name: 'nope', type: 3, value: 'x' },
      ],
      [{ name: 'word', type: 3, value: 'a' }],
      [
        { name: 'word', type: 3, value: 'abc' },
        { name: 'count', type: 4, value: 1.5 },
      ],
      [
        { name: 'word', type: 3, value: 'abc' },
        { name: 'count', type: 4, value: 4 },
      ],
      [
        { name: 'word', type: 3, value: 'abc' },
        { name: 'color', type: 3, value: 'blue' },
      ],
      [{ name: 'word', type: 4, value: 3 }],
      [{ name: 'count', type: 4, value: 2 }],
    ];
    for (const invoked of cases) {
      assert.throws(
        () => checkOptions(COMMAND_OPTIONS, invoked, 'data.options', noIds()),
        ValidationError,
        JSON.stringify(invoked),
      );
    }
  });

  it('names the offending option field', () => {
    assert.throws(
      () => checkOptions(COMMAND_OPTIONS, [{ name: 'word', type: 3, value: 7 }], 'data.options', noIds()),
      (error: unknown) => /"options":\{"0":\{"value"/.test(pathsOf(error)),
    );
  });

  it('counts a focused option only where the definition has autocomplete', () => {
    const invoked = [
      { name: 'word', type: 3, value: 'abc' },
      { name: 'query', type: 3, value: 'a', focused: true },
    ];
    assert.equal(checkOptions(COMMAND_OPTIONS, invoked, 'data.options', noIds()), 1);
    const notAutocomplete = [{ name: 'word', type: 3, value: 'a', focused: true }];
    assert.throws(() => checkOptions(COMMAND_OPTIONS, notAutocomplete, 'data.options', noIds()), ValidationError);
  });

  it('requires exactly one subcommand where the command has subcommands, and checks its options', () => {
    const nested = definitionsOf([
      { type: 1, name: 'add', description: 'a', options: [{ type: 4, name: 'n', description: 'n', required: true }] },
      { type: 1, name: 'list', description: 'l' },
    ]);
    assert.equal(
      checkOptions(nested, [{ name: 'add', type: 1, options: [{ name: 'n', type: 4, value: 1 }] }], 'o', noIds()),
      0,
    );
    assert.throws(() => checkOptions(nested, [], 'o', noIds()), ValidationError);
    assert.throws(() => checkOptions(nested, [{ name: 'add', type: 1, options: [] }], 'o', noIds()), ValidationError);
  });
});
