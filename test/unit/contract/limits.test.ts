import assert from 'node:assert/strict';
import type { SchemaName } from '../../../src/contract/index.js';
import { expectInvalid, expectValid, leafTree } from './expectInvalid.js';

/** One row of the spec's Limits table (plus Discord's own documented limits): a field, its boundaries, its errors. */
interface LimitCase {
  readonly title: string;
  readonly schema: SchemaName;
  /** Builds a body around the value under test. */
  readonly body: (value: unknown) => unknown;
  /** Dotted path of the field in the errors tree. */
  readonly path: string;
  readonly accept: readonly unknown[];
  readonly reject: readonly { readonly value: unknown; readonly code: string; readonly message: string }[];
}

const s = (length: number): string => 'x'.repeat(length);
const BAD = 'BASE_TYPE_BAD_LENGTH';
const MAX = 'BASE_TYPE_MAX_LENGTH';
const readState = { channel_id: '1', message_id: '2', read_state_type: 0 };
/** Every permission bit up to the highest known one (52); one more is a bit Discord refuses. */
const [ALL_BITS, BEYOND] = [String((1n << 53n) - 1n), String(1n << 53n)];

const SPEC_LIMITS: readonly LimitCase[] = [
  {
    title: 'RegisterSchema.username is 2..32 long',
    schema: 'RegisterSchema',
    body: (username) => ({ consent: true, username }),
    path: 'username',
    accept: [s(2), s(32)],
    reject: [
      { value: s(1), code: BAD, message: 'Must be between 2 and 32 in length.' },
      { value: s(33), code: BAD, message: 'Must be between 2 and 32 in length.' },
    ],
  },
  {
    title: 'RegisterSchema.password is 1..72 long',
    schema: 'RegisterSchema',
    body: (password) => ({ consent: true, username: 'alice', password }),
    path: 'password',
    accept: [s(1), s(72)],
    reject: [
      { value: '', code: BAD, message: 'Must be between 1 and 72 in length.' },
      { value: s(73), code: BAD, message: 'Must be between 1 and 72 in length.' },
    ],
  },
  {
    title: 'UserModifySchema.username is 1..100 long',
    schema: 'UserModifySchema',
    body: (username) => ({ username }),
    path: 'username',
    accept: [s(1), s(100)],
    reject: [
      { value: '', code: BAD, message: 'Must be between 1 and 100 in length.' },
      { value: s(101), code: BAD, message: 'Must be between 1 and 100 in length.' },
    ],
  },
  {
    title: 'UserModifySchema.bio is at most 1024 long',
    schema: 'UserModifySchema',
    body: (bio) => ({ bio }),
    path: 'bio',
    accept: ['', s(1024)],
    reject: [{ value: s(1025), code: MAX, message: 'Must be 1024 or fewer in length.' }],
  },
  {
    title: 'UserModifySchema.discriminator is exactly 4 long',
    schema: 'UserModifySchema',
    body: (discriminator) => ({ discriminator }),
    path: 'discriminator',
    accept: ['0001'],
    reject: [
      { value: '001', code: BAD, message: 'Must be between 4 and 4 in length.' },
      { value: '00001', code: BAD, message: 'Must be between 4 and 4 in length.' },
    ],
  },
  {
    title: 'GuildCreateSchema.name is at most 100 long',
    schema: 'GuildCreateSchema',
    body: (name) => ({ name }),
    path: 'name',
    accept: [s(100)],
    reject: [{ value: s(101), code: MAX, message: 'Must be 100 or fewer in length.' }],
  },
  {
    title: 'ChannelModifySchema.name is at most 100 long',
    schema: 'ChannelModifySchema',
    body: (name) => ({ name }),
    path: 'name',
    accept: [s(100)],
    reject: [{ value: s(101), code: MAX, message: 'Must be 100 or fewer in length.' }],
  },
  {
    title: 'WebhookCreateSchema.name is at most 80 long',
    schema: 'WebhookCreateSchema',
    body: (name) => ({ name }),
    path: 'name',
    accept: [s(80)],
    reject: [{ value: s(81), code: MAX, message: 'Must be 80 or fewer in length.' }],
  },
  {
    title: 'ModifyGuildStickerSchema.name is 2..30 long',
    schema: 'ModifyGuildStickerSchema',
    body: (name) => ({ name, tags: 'smile' }),
    path: 'name',
    accept: [s(2), s(30)],
    reject: [
      { value: s(1), code: BAD, message: 'Must be between 2 and 30 in length.' },
      { value: s(31), code: BAD, message: 'Must be between 2 and 30 in length.' },
    ],
  },
  {
    title: 'ModifyGuildStickerSchema.description is at most 100 long',
    schema: 'ModifyGuildStickerSchema',
    body: (description) => ({ name: 'wave', tags: 'smile', description }),
    path: 'description',
    accept: [s(100)],
    reject: [{ value: s(101), code: MAX, message: 'Must be 100 or fewer in length.' }],
  },
  {
    title: 'ModifyGuildStickerSchema.tags is at most 200 long',
    schema: 'ModifyGuildStickerSchema',
    body: (tags) => ({ name: 'wave', tags }),
    path: 'tags',
    accept: [s(200)],
    reject: [{ value: s(201), code: MAX, message: 'Must be 200 or fewer in length.' }],
  },
  {
    title: 'VanityUrlSchema.code is 1..20 long',
    schema: 'VanityUrlSchema',
    body: (code) => ({ code }),
    path: 'code',
    accept: [s(1), s(20)],
    reject: [
      { value: '', code: BAD, message: 'Must be between 1 and 20 in length.' },
      { value: s(21), code: BAD, message: 'Must be between 1 and 20 in length.' },
    ],
  },
  ...(['UserProfileModifySchema', 'MemberChangeProfileSchema'] as const).map((schema): LimitCase => ({
    title: `${schema}.theme_colors is exactly 2 integers`,
    schema,
    body: (theme_colors) => ({ theme_colors }),
    path: 'theme_colors',
    accept: [[0, 16777215]],
    reject: [
      { value: [1], code: BAD, message: 'Must be between 2 and 2 in length.' },
      { value: [1, 2, 3], code: BAD, message: 'Must be between 2 and 2 in length.' },
    ],
  })),
  {
    title: 'AckBulkSchema.read_states holds exactly 1 item',
    schema: 'AckBulkSchema',
    body: (read_states) => ({ read_states }),
    path: 'read_states',
    accept: [[readState]],
    reject: [
      { value: [], code: BAD, message: 'Must be between 1 and 1 in length.' },
      { value: [readState, readState], code: BAD, message: 'Must be between 1 and 1 in length.' },
    ],
  },
  {
    title: 'IdentifySchema.shard is exactly 2 numbers',
    schema: 'IdentifySchema',
    body: (shard) => ({ token: 't', properties: {}, shard }),
    path: 'shard',
    accept: [[0, 1]],
    reject: [
      { value: [0], code: BAD, message: 'Must be between 2 and 2 in length.' },
      { value: [0, 1, 2], code: BAD, message: 'Must be between 2 and 2 in length.' },
    ],
  },
];

const DISCORD_LIMITS: readonly LimitCase[] = [
  ...(['MessageCreateSchema', 'MessageEditSchema'] as const).map((schema): LimitCase => ({
    title: `${schema}.content is at most 2000 long`,
    schema,
    body: (content) => ({ content }),
    path: 'content',
    accept: [s(2000)],
    reject: [{ value: s(2001), code: MAX, message: 'Must be 2000 or fewer in length.' }],
  })),
  {
    title: 'MessageCreateSchema.embeds holds at most 10',
    schema: 'MessageCreateSchema',
    body: (embeds) => ({ embeds }),
    path: 'embeds',
    accept: [Array.from({ length: 10 }, () => ({}))],
    reject: [{ value: Array.from({ length: 11 }, () => ({})), code: MAX, message: 'Must be 10 or fewer in length.' }],
  },
  {
    title: 'MessageCreateSchema.nonce is a string of at most 25, or an integer',
    schema: 'MessageCreateSchema',
    body: (nonce) => ({ nonce }),
    path: 'nonce',
    accept: [s(25), 1234567890123],
    reject: [{ value: s(26), code: MAX, message: 'Must be 25 or fewer in length.' }],
  },
  ...(
    [
      ['title', 256],
      ['description', 4096],
    ] as const
  ).map(([field, max]): LimitCase => ({
    title: `Embed.${field} is at most ${max} long`,
    schema: 'MessageCreateSchema',
    body: (value) => ({ embeds: [{ [field]: value }] }),
    path: `embeds.0.${field}`,
    accept: [s(max)],
    reject: [{ value: s(max + 1), code: MAX, message: `Must be ${max} or fewer in length.` }],
  })),
  {
    title: 'Embed.fields holds at most 25',
    schema: 'MessageCreateSchema',
    body: (fields) => ({ embeds: [{ fields }] }),
    path: 'embeds.0.fields',
    accept: [Array.from({ length: 25 }, () => ({ name: 'n', value: 'v' }))],
    reject: [
      {
        value: Array.from({ length: 26 }, () => ({ name: 'n', value: 'v' })),
        code: MAX,
        message: 'Must be 25 or fewer in length.',
      },
    ],
  },
  ...(
    [
      ['name', 256],
      ['value', 1024],
    ] as const
  ).map(([key, max]): LimitCase => ({
    title: `Embed field ${key} is at most ${max} long`,
    schema: 'MessageCreateSchema',
    body: (value) => ({ embeds: [{ fields: [{ name: 'n', value: 'v', [key]: value }] }] }),
    path: `embeds.0.fields.0.${key}`,
    accept: [s(max)],
    reject: [{ value: s(max + 1), code: MAX, message: `Must be ${max} or fewer in length.` }],
  })),
  {
    title: 'Embed footer text is at most 2048 long',
    schema: 'MessageCreateSchema',
    body: (text) => ({ embed: { footer: { text } } }),
    path: 'embed.footer.text',
    accept: [s(2048)],
    reject: [{ value: s(2049), code: MAX, message: 'Must be 2048 or fewer in length.' }],
  },
  {
    title: 'Embed author name is at most 256 long',
    schema: 'MessageCreateSchema',
    body: (name) => ({ embeds: [{ author: { name } }] }),
    path: 'embeds.0.author.name',
    accept: [s(256)],
    reject: [{ value: s(257), code: MAX, message: 'Must be 256 or fewer in length.' }],
  },
  ...(
    [
      ['RoleModifySchema', (permissions: unknown) => ({ permissions }), 'permissions'],
      [
        'ApplicationAuthorizeSchema',
        (permissions: unknown) => ({ authorize: true, guild_id: '1', permissions }),
        'permissions',
      ],
      ['ChannelPermissionOverwriteSchema', (allow: unknown) => ({ id: '1', type: 0, allow, deny: '0' }), 'allow'],
    ] as const
  ).map(([schema, body, path]): LimitCase => ({
    title: `${schema}.${path} is a decimal string or an integer of the known permission bits`,
    schema,
    body,
    path,
    accept: ['0', 8, ALL_BITS],
    reject: [
      { value: '', code: 'NUMBER_TYPE_COERCE', message: 'Value "" is not int.' },
      { value: '9'.repeat(21), code: 'NUMBER_TYPE_COERCE', message: `Value "${'9'.repeat(21)}" is not int.` },
      { value: '0x10', code: 'NUMBER_TYPE_COERCE', message: 'Value "0x10" is not int.' },
      { value: BEYOND, code: 'NUMBER_TYPE_MAX', message: `int value should be less than or equal to ${ALL_BITS}.` },
    ],
  })),
];

function describeLimits(title: string, cases: readonly LimitCase[]): void {
  describe(title, () => {
    for (const limit of cases) {
      describe(limit.title, () => {
        it('accepts the boundary values', () => {
          for (const value of limit.accept) expectValid(limit.schema, limit.body(value));
        });

        it("rejects values past the boundary with Discord's error leaf", () => {
          for (const { value, code, message } of limit.reject) {
            assert.deepEqual(expectInvalid(limit.schema, limit.body(value)), leafTree(limit.path, code, message));
          }
        });
      });
    }
  });
}

describeLimits('spec Limits table', SPEC_LIMITS);
describeLimits('Discord limits beyond the spec', DISCORD_LIMITS);
