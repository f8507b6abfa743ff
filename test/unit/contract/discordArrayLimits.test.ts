import assert from 'node:assert/strict';
import type { SchemaName } from '../../../src/contract/index.js';
import { expectInvalid, expectValid, leafTree } from './expectInvalid.js';

/** One of Discord's documented array limits: the longest list a body may hold, and where. */
interface ArrayLimit {
  readonly schema: SchemaName;
  readonly path: string;
  readonly max: number;
  readonly body: (list: unknown[]) => unknown;
  readonly item: unknown;
}

const ARRAY_LIMITS: readonly ArrayLimit[] = [
  { schema: 'MessageCreateSchema', path: 'sticker_ids', max: 3, body: (list) => ({ sticker_ids: list }), item: '1' },
  { schema: 'MessageCreateSchema', path: 'embeds', max: 10, body: (list) => ({ embeds: list }), item: {} },
  {
    schema: 'MessageCreateSchema',
    path: 'embeds.0.fields',
    max: 25,
    body: (list) => ({ embeds: [{ fields: list }] }),
    item: { name: 'n', value: 'v' },
  },
  {
    schema: 'MessageCreateSchema',
    path: 'allowed_mentions.users',
    max: 100,
    body: (list) => ({ allowed_mentions: { users: list } }),
    item: '1',
  },
  {
    schema: 'MessageCreateSchema',
    path: 'allowed_mentions.roles',
    max: 100,
    body: (list) => ({ allowed_mentions: { roles: list } }),
    item: '1',
  },
  {
    schema: 'MessageCreateSchema',
    path: 'components',
    max: 5,
    body: (list) => ({ components: list }),
    item: { type: 1, components: [{ type: 2, style: 1, label: 'ok', custom_id: 'b' }] },
  },
  {
    schema: 'MessageCreateSchema',
    path: 'components.0.components',
    max: 5,
    body: (list) => ({ components: [{ type: 1, components: list }] }),
    item: { type: 2, style: 1, label: 'ok', custom_id: 'b' },
  },
  {
    schema: 'MessageCreateSchema',
    path: 'attachments',
    max: 10,
    body: (list) => ({ attachments: list }),
    item: { id: 0 },
  },
  {
    schema: 'DmChannelCreateSchema',
    path: 'recipients',
    max: 9,
    body: (list) => ({ recipients: list }),
    item: '1',
  },
  { schema: 'MemberChangeSchema', path: 'roles', max: 250, body: (list) => ({ roles: list }), item: '1' },
  {
    schema: 'UserSettingsSchema',
    path: 'guild_positions',
    max: 200,
    body: (list) => ({ guild_positions: list }),
    item: '1',
  },
  {
    schema: 'UserSettingsSchema',
    path: 'restricted_guilds',
    max: 200,
    body: (list) => ({ restricted_guilds: list }),
    item: '1',
  },
  { schema: 'ApplicationModifySchema', path: 'tags', max: 5, body: (list) => ({ tags: list }), item: 'tag' },
];

describe("Discord's array limits", () => {
  for (const limit of ARRAY_LIMITS) {
    it(`${limit.schema}.${limit.path} holds at most ${limit.max} items`, () => {
      expectValid(limit.schema, limit.body(Array.from({ length: limit.max }, () => structuredClone(limit.item))));
      const over = limit.body(Array.from({ length: limit.max + 1 }, () => structuredClone(limit.item)));
      assert.deepEqual(
        expectInvalid(limit.schema, over),
        leafTree(limit.path, 'BASE_TYPE_MAX_LENGTH', `Must be ${limit.max} or fewer in length.`),
      );
    });
  }

  it('keeps a component of a message as sent, its known fields only', () => {
    const button = { type: 2, style: 5, label: 'Docs', url: 'https://example.com', tracking: 'x' };
    const body = { components: [{ type: 1, components: [button] }] };
    expectValid('MessageCreateSchema', body);
    assert.deepEqual(body.components[0]?.components[0], {
      type: 2,
      style: 5,
      label: 'Docs',
      url: 'https://example.com',
    });
  });

  it('bounds the free text of a component (a button label is at most 80)', () => {
    const body = {
      components: [{ type: 1, components: [{ type: 2, style: 1, custom_id: 'b', label: 'x'.repeat(81) }] }],
    };
    assert.deepEqual(
      expectInvalid('MessageCreateSchema', body),
      leafTree('components.0.components.0.label', 'BASE_TYPE_MAX_LENGTH', 'Must be 80 or fewer in length.'),
    );
  });
});
