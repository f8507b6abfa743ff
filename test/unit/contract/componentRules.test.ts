import assert from 'node:assert/strict';
import { ValidationError, type FieldErrorTree } from '../../../src/domain/errors.js';
import { checkMessageComponents, type MessageComponentRows } from '../../../src/contract/componentRules.js';
import { componentsFromSender } from '../../../src/contract/componentSenders.js';
import { validateModalComponents } from '../../../src/contract/modalComponents.js';
import { validate } from '../../../src/contract/validate.js';

/** The schema-valid message components of `rows` (as the edge hands them to the rules). */
function rowsOf(...rows: unknown[][]): MessageComponentRows {
  const body = validate('MessageCreateSchema', {
    content: 'x',
    components: rows.map((components) => ({ type: 1, components })),
  });
  return body.components ?? [];
}

/** The error tree `run` throws (it must throw a ValidationError). */
function errorsOf(run: () => unknown): FieldErrorTree {
  let tree: FieldErrorTree = {};
  assert.throws(run, (error: unknown) => {
    if (!(error instanceof ValidationError)) return false;
    tree = error.fieldErrors;
    return true;
  });
  return tree;
}

/** The error codes at a dotted path of a tree ([] when that field has none). */
function codesAt(tree: FieldErrorTree, path: string): string[] {
  let node: FieldErrorTree | undefined = tree;
  for (const key of path.split('.')) {
    const next: FieldErrorTree | FieldErrorTree[string] | undefined = node?.[key];
    node = next === undefined || Array.isArray(next) ? undefined : next;
  }
  const leaves = node?.['_errors'];
  return Array.isArray(leaves) ? leaves.map((leaf) => leaf.code) : [];
}

const check = (rows: MessageComponentRows) => checkMessageComponents(rows, { interactive: true });
const button = (fields: Record<string, unknown>) => ({ type: 2, style: 1, label: 'Go', custom_id: 'go', ...fields });

describe('Message components', () => {
  describe('buttons', () => {
    it('accept up to five buttons of styles 1 to 5 in a row', () => {
      const rows = rowsOf([
        button({ custom_id: 'a' }),
        button({ custom_id: 'b', style: 2 }),
        button({ custom_id: 'c', style: 3 }),
        button({ custom_id: 'd', style: 4, label: undefined, emoji: { name: '🔥' } }),
        { type: 2, style: 5, label: 'Docs', url: 'https://example.com/docs' },
      ]);
      assert.equal(check(rows)[0]?.components?.length, 5);
    });

    it('refuse a styled button without custom_id and a link button without url', () => {
      const tree = errorsOf(() => check(rowsOf([button({ custom_id: undefined }), { type: 2, style: 5, label: 'x' }])));
      assert.deepEqual(codesAt(tree, 'components.0.components.0.custom_id'), ['BUTTON_COMPONENT_CUSTOM_ID_REQUIRED']);
      assert.deepEqual(codesAt(tree, 'components.0.components.1.url'), ['BUTTON_COMPONENT_URL_REQUIRED']);
    });

    it('refuse a url on a styled button and a custom_id on a link button', () => {
      const tree = errorsOf(() =>
        check(
          rowsOf([
            button({ url: 'https://a.example' }),
            { type: 2, style: 5, label: 'x', url: 'https://b.example', custom_id: 'l' },
          ]),
        ),
      );
      assert.deepEqual(codesAt(tree, 'components.0.components.0.url'), ['COMPONENT_FIELD_NOT_ALLOWED']);
      assert.deepEqual(codesAt(tree, 'components.0.components.1.custom_id'), ['COMPONENT_FIELD_NOT_ALLOWED']);
    });

    it('refuse a button with neither label nor emoji, an unknown style, and a label over 80', () => {
      const tree = errorsOf(() => check(rowsOf([button({ label: undefined }), button({ custom_id: 's', style: 9 })])));
      assert.deepEqual(codesAt(tree, 'components.0.components.0.label'), ['BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED']);
      assert.deepEqual(codesAt(tree, 'components.0.components.1.style'), ['BASE_TYPE_CHOICES']);
      const long = errorsOf(() => rowsOf([button({ label: 'x'.repeat(81) })]));
      assert.deepEqual(codesAt(long, 'components.0.components.0.label'), ['BASE_TYPE_MAX_LENGTH']);
    });

    it('refuse a custom_id used twice in one message, naming the second', () => {
      const tree = errorsOf(() => check(rowsOf([button({})], [button({})])));
      assert.deepEqual(codesAt(tree, 'components.1.components.0.custom_id'), ['COMPONENT_CUSTOM_ID_DUPLICATED']);
      assert.deepEqual(codesAt(tree, 'components.0.components.0.custom_id'), []);
    });
  });

  describe('rows', () => {
    it('refuse an empty row, a sixth row and a sixth component', () => {
      const tree = errorsOf(() => check(rowsOf([])));
      assert.deepEqual(codesAt(tree, 'components.0.components'), ['BASE_TYPE_BAD_LENGTH']);
      const six = Array.from({ length: 6 }, (_, i) => button({ custom_id: `b${i}` }));
      const wide = errorsOf(() => rowsOf(six));
      assert.deepEqual(codesAt(wide, 'components.0.components'), ['BASE_TYPE_MAX_LENGTH']);
      const sixRows = Array.from({ length: 6 }, (_, i) => [button({ custom_id: `r${i}` })]);
      assert.deepEqual(
        codesAt(
          errorsOf(() => rowsOf(...sixRows)),
          'components',
        ),
        ['BASE_TYPE_MAX_LENGTH'],
      );
    });

    it('refuse a select menu sharing its row', () => {
      const select = { type: 5, custom_id: 'who' };
      const tree = errorsOf(() => check(rowsOf([select, button({})])));
      assert.deepEqual(codesAt(tree, 'components.0.components'), ['COMPONENT_LAYOUT_WIDTH_EXCEEDED']);
    });

    it('refuse a text input in a message (modals only)', () => {
      const input = { type: 4, custom_id: 'name', style: 1, label: 'Name' };
      const tree = errorsOf(() => check(rowsOf([input])));
      assert.deepEqual(codesAt(tree, 'components.0.components.0.type'), ['COMPONENT_TYPE_INVALID']);
    });

    it('refuse an action row inside a row and a top-level button', () => {
      const nested = errorsOf(() => rowsOf([{ type: 1, components: [] }]));
      assert.deepEqual(codesAt(nested, 'components.0.components.0.type'), ['NUMBER_TYPE_MIN']);
      const top = errorsOf(() => validate('MessageCreateSchema', { content: 'x', components: [button({})] }));
      assert.deepEqual(codesAt(top, 'components.0.type'), ['NUMBER_TYPE_MAX']);
    });
  });

  describe('select menus', () => {
    const options = [
      { label: 'Red', value: 'red' },
      { label: 'Blue', value: 'blue', default: true },
    ];

    it('accept each of the five kinds and keep only their own fields', () => {
      const rows = rowsOf(
        [
          {
            type: 3,
            custom_id: 's',
            options,
            placeholder: 'Pick',
            min_values: 1,
            max_values: 2,
            url: 'https://x.example',
          },
        ],
        [{ type: 5, custom_id: 'u', default_values: [{ id: '1', type: 'user' }] }],
        [{ type: 6, custom_id: 'r' }],
        [{ type: 7, custom_id: 'm', default_values: [{ id: '2', type: 'role' }] }],
        [{ type: 8, custom_id: 'c', channel_types: [0, 2] }],
      );
      const checked = check(rows);
      assert.equal(checked.length, 5);
      assert.equal(checked[0]?.components?.[0]?.url, undefined);
      assert.deepEqual(checked[4]?.components?.[0]?.channel_types, [0, 2]);
    });

    it('refuse a string select without options, min over max, and more defaults than max_values', () => {
      const tree = errorsOf(() =>
        check(
          rowsOf(
            [{ type: 3, custom_id: 'a' }],
            [{ type: 3, custom_id: 'b', options, min_values: 2, max_values: 1 }],
            [{ type: 3, custom_id: 'c', options: options.map((o) => ({ ...o, default: true })) }],
          ),
        ),
      );
      assert.deepEqual(codesAt(tree, 'components.0.components.0.options'), ['BASE_TYPE_BAD_LENGTH']);
      assert.deepEqual(codesAt(tree, 'components.1.components.0.min_values'), ['SELECT_COMPONENT_MIN_MAX_VALUES']);
      assert.deepEqual(codesAt(tree, 'components.2.components.0.options'), ['SELECT_COMPONENT_TOO_MANY_DEFAULTS']);
    });

    it('refuse 26 options, an option value over 100 and max_values over 25', () => {
      const many = Array.from({ length: 26 }, (_, i) => ({ label: `o${i}`, value: `v${i}` }));
      const tree = errorsOf(() =>
        rowsOf(
          [{ type: 3, custom_id: 'a', options: many }],
          [{ type: 3, custom_id: 'b', options: [{ label: 'x', value: 'v'.repeat(101) }] }],
          [{ type: 5, custom_id: 'c', max_values: 26 }],
        ),
      );
      assert.deepEqual(codesAt(tree, 'components.0.components.0.options'), ['BASE_TYPE_MAX_LENGTH']);
      assert.deepEqual(codesAt(tree, 'components.1.components.0.options.0.value'), ['BASE_TYPE_BAD_LENGTH']);
      assert.deepEqual(codesAt(tree, 'components.2.components.0.max_values'), ['NUMBER_TYPE_MAX']);
    });

    it('refuse channel_types outside a channel select and a default of the wrong kind', () => {
      const tree = errorsOf(() =>
        check(
          rowsOf(
            [{ type: 5, custom_id: 'u', channel_types: [0] }],
            [{ type: 6, custom_id: 'r', default_values: [{ id: '3', type: 'user' }] }],
            [{ type: 5, custom_id: 'o', options }],
          ),
        ),
      );
      assert.deepEqual(codesAt(tree, 'components.0.components.0.channel_types'), ['COMPONENT_FIELD_NOT_ALLOWED']);
      assert.deepEqual(codesAt(tree, 'components.1.components.0.default_values.0.type'), ['BASE_TYPE_CHOICES']);
      assert.deepEqual(codesAt(tree, 'components.2.components.0.options'), ['COMPONENT_FIELD_NOT_ALLOWED']);
    });

    it('refuse a select without custom_id', () => {
      const tree = errorsOf(() => check(rowsOf([{ type: 6 }])));
      assert.deepEqual(codesAt(tree, 'components.0.components.0.custom_id'), ['BASE_TYPE_REQUIRED']);
    });
  });

  describe('by sender', () => {
    const body = () => ({ components: rowsOf([button({})]) });

    it('keeps an application’s components and drops a user account’s', () => {
      assert.equal(componentsFromSender(body(), { kind: 'application' }).components?.length, 1);
      assert.equal(componentsFromSender(body(), { kind: 'user' }).components, undefined);
    });

    it('drops a plain webhook’s components unless asked with with_components, then allows link buttons only', () => {
      assert.equal(componentsFromSender(body(), { kind: 'webhook', withComponents: false }).components, undefined);
      const tree = errorsOf(() => componentsFromSender(body(), { kind: 'webhook', withComponents: true }));
      assert.deepEqual(codesAt(tree, 'components.0.components.0'), ['COMPONENT_INTERACTIVE_NOT_ALLOWED']);
      const link = { components: rowsOf([{ type: 2, style: 5, label: 'Docs', url: 'https://example.com' }]) };
      const kept = componentsFromSender(link, { kind: 'webhook', withComponents: true });
      assert.equal(kept.components?.[0]?.components?.[0]?.url, 'https://example.com');
    });
  });
});

describe('Modal components', () => {
  const input = (fields: Record<string, unknown>) => ({
    type: 1,
    components: [{ type: 4, custom_id: 'name', style: 1, label: 'Name', ...fields }],
  });

  it('accept rows of one text input each', () => {
    validateModalComponents([input({}), input({ custom_id: 'bio', style: 2, min_length: 0, max_length: 4000 })]);
  });

  it('refuse a missing label, a label over 45 and an unknown style, naming the field under the given path', () => {
    const tree = errorsOf(() => {
      validateModalComponents(
        [
          input({ label: undefined }),
          input({ custom_id: 'b', label: 'x'.repeat(46) }),
          input({ custom_id: 'c', style: 3 }),
        ],
        'data.components',
      );
    });
    assert.deepEqual(codesAt(tree, 'data.components.0.components.0.label'), ['BASE_TYPE_REQUIRED']);
    assert.deepEqual(codesAt(tree, 'data.components.1.components.0.label'), ['BASE_TYPE_BAD_LENGTH']);
    assert.deepEqual(codesAt(tree, 'data.components.2.components.0.style'), ['BASE_TYPE_CHOICES']);
  });

  it('refuse a button in a modal, two inputs in a row, min_length over max_length and a custom_id used twice', () => {
    const tree = errorsOf(() => {
      validateModalComponents([
        { type: 1, components: [{ type: 2, style: 1, custom_id: 'b', label: 'B' }] },
        { type: 1, components: [input({}).components[0], input({ custom_id: 'x' }).components[0]] },
        input({ custom_id: 'len', min_length: 10, max_length: 5 }),
        input({ custom_id: 'len' }),
      ]);
    });
    assert.deepEqual(codesAt(tree, 'components.0.components.0.type'), ['COMPONENT_TYPE_INVALID']);
    assert.deepEqual(codesAt(tree, 'components.1.components'), ['BASE_TYPE_BAD_LENGTH']);
    assert.deepEqual(codesAt(tree, 'components.2.components.0.min_length'), ['NUMBER_TYPE_MAX']);
    assert.deepEqual(codesAt(tree, 'components.3.components.0.custom_id'), ['COMPONENT_CUSTOM_ID_DUPLICATED']);
  });

  it('refuse no rows, six rows, and a value that is not an array', () => {
    assert.deepEqual(
      codesAt(
        errorsOf(() => {
          validateModalComponents([]);
        }),
        'components',
      ),
      ['BASE_TYPE_BAD_LENGTH'],
    );
    const six = Array.from({ length: 6 }, (_, i) => input({ custom_id: `i${i}` }));
    assert.deepEqual(
      codesAt(
        errorsOf(() => {
          validateModalComponents(six);
        }),
        'components',
      ),
      ['BASE_TYPE_BAD_LENGTH'],
    );
    assert.deepEqual(
      codesAt(
        errorsOf(() => {
          validateModalComponents('no');
        }),
        'components',
      ),
      ['BASE_TYPE_ARRAY'],
    );
  });
});
