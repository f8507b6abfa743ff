import assert from 'node:assert/strict';
import type { SchemaName } from '../../../src/contract/index.js';
import { validate } from '../../../src/contract/validate.js';
import { expectInvalid, leafTree } from './expectInvalid.js';

/** A body in a shape some client sends, and the one canonical shape the actor receives. */
interface AcceptedCase {
  readonly title: string;
  readonly schema: SchemaName;
  readonly body: unknown;
  readonly canonical: unknown;
}

/** A body Discord refuses, and the leaf of its 400 50035 (`path` is dotted, array indices included). */
interface RefusedCase {
  readonly title: string;
  readonly schema: SchemaName;
  readonly body: unknown;
  readonly path: string;
  readonly code: string;
  readonly message: string;
}

const NOT_SNOWFLAKE = (value: string) => `Value "${value}" is not snowflake.`;
const NOT_INT = (value: string) => `Value "${value}" is not int.`;
/** Every bit up to the highest known permission (bit 52). */
const KNOWN_BITS_MAX = (1n << 53n) - 1n;
const U64_MAX = ((1n << 64n) - 1n).toString();

const ACCEPTED: readonly AcceptedCase[] = [
  {
    title: 'a snowflake given as a JSON integer becomes its decimal string',
    schema: 'MessageCreateSchema',
    body: { content: 'hi', message_reference: { message_id: 4096, channel_id: '17' } },
    canonical: { content: 'hi', message_reference: { message_id: '4096', channel_id: '17' } },
  },
  {
    title: 'a 20-digit snowflake below 2^64 is kept, and leading zeros are dropped',
    schema: 'MemberChangeSchema',
    body: { roles: [U64_MAX, '007', 12] },
    canonical: { roles: [U64_MAX, '7', '12'] },
  },
  {
    title: 'a permission mask given as a number becomes a decimal string',
    schema: 'RoleCreateSchema',
    body: { name: 'mods', permissions: 8 },
    canonical: { name: 'mods', permissions: '8' },
  },
  {
    title: 'the mask of every known bit is accepted',
    schema: 'ApplicationAuthorizeSchema',
    body: { authorize: true, guild_id: 1, permissions: String(KNOWN_BITS_MAX) },
    canonical: { authorize: true, guild_id: '1', permissions: String(KNOWN_BITS_MAX) },
  },
  {
    title: 'an overwrite PUT without id, type as a string, allow and deny as numbers',
    schema: 'ChannelPermissionOverwriteSchema',
    body: { type: '1', allow: 1024, deny: 0 },
    canonical: { type: 1, allow: '1024', deny: '0' },
  },
  {
    title: 'overwrites of a channel with integer ids (discord.py), a null deny taken as absent',
    schema: 'ChannelModifySchema',
    body: { permission_overwrites: [{ id: 5, type: 0, allow: '2048', deny: null }] },
    canonical: { permission_overwrites: [{ id: '5', type: 0, allow: '2048' }] },
  },
  {
    title: "JDA's command: contexts and integration_types as numeric strings, null permissions kept",
    schema: 'ApplicationCommandBulkSchema',
    body: [
      {
        name: 'ping',
        description: 'Ping',
        type: 1,
        contexts: ['0', '1', '2'],
        integration_types: ['0'],
        default_member_permissions: null,
        options: [{ type: '4', name: 'n', description: 'd', min_value: '1.5', max_length: null }],
      },
    ],
    canonical: [
      {
        name: 'ping',
        description: 'Ping',
        type: 1,
        contexts: [0, 1, 2],
        integration_types: [0],
        default_member_permissions: null,
        options: [{ type: 4, name: 'n', description: 'd', min_value: 1.5 }],
      },
    ],
  },
  {
    title: 'nonce null (Discord4J) is taken as no nonce; integer fields take numeric strings',
    schema: 'MessageCreateSchema',
    body: { content: 'hi', nonce: null, tts: null, flags: '4', attachments: [{ id: 0 }] },
    canonical: { content: 'hi', flags: 4, attachments: [{ id: '0' }] },
  },
  {
    title: 'null keeps its meaning where the field is nullable (no topic, no category)',
    schema: 'ChannelModifySchema',
    body: { topic: null, parent_id: null, position: ' 3 ', rate_limit_per_user: '0' },
    canonical: { topic: null, parent_id: null, position: 3, rate_limit_per_user: 0 },
  },
  {
    title: 'null clears a guild channel setting and the description (Discord\'s "?" fields)',
    schema: 'GuildUpdateSchema',
    body: { afk_channel_id: null, system_channel_id: 42, description: null, name: null },
    canonical: { afk_channel_id: null, system_channel_id: '42', description: null },
  },
  {
    title: 'null removes a role icon and emoji, other nulls are absent',
    schema: 'RoleModifySchema',
    body: { icon: null, unicode_emoji: null, hoist: null, color: '255' },
    canonical: { icon: null, unicode_emoji: null, color: 255 },
  },
  {
    title: 'ban delete windows given as strings (the spec) or numbers become numbers',
    schema: 'BanCreateSchema',
    body: { delete_message_seconds: '3600', delete_message_days: 1, reason: null },
    canonical: { delete_message_seconds: 3600, delete_message_days: 1 },
  },
];

const REFUSED: readonly RefusedCase[] = [
  {
    title: 'a 21-digit snowflake',
    schema: 'MessageCreateSchema',
    body: { message_reference: { message_id: '1'.repeat(21) } },
    path: 'message_reference.message_id',
    code: 'NUMBER_TYPE_COERCE',
    message: NOT_SNOWFLAKE('1'.repeat(21)),
  },
  {
    title: 'a snowflake of 2^64',
    schema: 'BulkDeleteSchema',
    body: { messages: ['1', '18446744073709551616'] },
    path: 'messages.1',
    code: 'NUMBER_TYPE_COERCE',
    message: NOT_SNOWFLAKE('18446744073709551616'),
  },
  {
    title: 'a negative id',
    schema: 'ChannelPermissionOverwriteSchema',
    body: { id: -5, type: 0 },
    path: 'id',
    code: 'NUMBER_TYPE_COERCE',
    message: NOT_SNOWFLAKE('-5'),
  },
  {
    title: 'a fractional id',
    schema: 'MemberChangeSchema',
    body: { roles: [1.5] },
    path: 'roles.0',
    code: 'NUMBER_TYPE_COERCE',
    message: NOT_SNOWFLAKE('1.5'),
  },
  {
    title: 'an id that is not a number',
    schema: 'WidgetModifySchema',
    body: { enabled: true, channel_id: 'general' },
    path: 'channel_id',
    code: 'NUMBER_TYPE_COERCE',
    message: NOT_SNOWFLAKE('general'),
  },
  {
    title: 'a permission mask with a bit beyond the known ones',
    schema: 'RoleModifySchema',
    body: { permissions: String(KNOWN_BITS_MAX + 1n) },
    path: 'permissions',
    code: 'NUMBER_TYPE_MAX',
    message: `int value should be less than or equal to ${KNOWN_BITS_MAX}.`,
  },
  {
    title: 'a negative permission mask',
    schema: 'ChannelPermissionOverwriteSchema',
    body: { type: 0, deny: -8 },
    path: 'deny',
    code: 'NUMBER_TYPE_COERCE',
    message: NOT_INT('-8'),
  },
  {
    title: 'a fraction in an integer field, even as a string',
    schema: 'ChannelModifySchema',
    body: { position: '1.5' },
    path: 'position',
    code: 'NUMBER_TYPE_COERCE',
    message: NOT_INT('1.5'),
  },
  {
    title: 'an integer field beyond 2^53',
    schema: 'ChannelModifySchema',
    body: { bitrate: '9'.repeat(20) },
    path: 'bitrate',
    code: 'NUMBER_TYPE_COERCE',
    message: NOT_INT('9'.repeat(20)),
  },
  {
    title: 'a numeric string outside the choices',
    schema: 'ApplicationCommandCreateSchema',
    body: { name: 'ping', contexts: ['3'] },
    path: 'contexts.0',
    code: 'BASE_TYPE_CHOICES',
    message: 'Value must be one of (0, 1, 2).',
  },
  {
    title: 'a numeric string beyond a bound',
    schema: 'ApplicationCommandCreateSchema',
    body: { name: 'ping', options: [{ type: 3, name: 'n', description: 'd', max_length: '7000' }] },
    path: 'options.0.max_length',
    code: 'NUMBER_TYPE_MAX',
    message: 'int value should be less than or equal to 6000.',
  },
  {
    title: 'the pre-v8 overwrite type names',
    schema: 'ChannelPermissionOverwriteSchema',
    body: { type: 'role' },
    path: 'type',
    code: 'NUMBER_TYPE_COERCE',
    message: NOT_INT('role'),
  },
  {
    title: 'null for a required field (reported missing)',
    schema: 'ChannelPermissionOverwriteSchema',
    body: { type: null, allow: '0' },
    path: 'type',
    code: 'BASE_TYPE_REQUIRED',
    message: 'This field is required',
  },
  {
    title: 'an overwrite of a channel list without its id',
    schema: 'ChannelCreateSchema',
    body: { name: 'c', permission_overwrites: [{ type: 0, allow: '0' }] },
    path: 'permission_overwrites.0.id',
    code: 'BASE_TYPE_REQUIRED',
    message: 'This field is required',
  },
];

describe('liberal input (wire forms)', () => {
  describe('accepts what Discord accepts, in one canonical shape', () => {
    for (const row of ACCEPTED) {
      it(row.title, () => {
        const body = structuredClone(row.body);
        assert.deepEqual(validate(row.schema, body), row.canonical);
      });
    }
  });

  describe('refuses what Discord refuses with 50035 naming the field', () => {
    for (const row of REFUSED) {
      it(row.title, () => {
        assert.deepEqual(expectInvalid(row.schema, row.body), leafTree(row.path, row.code, row.message));
      });
    }
  });

  it('converts in place, so the validated body is the one the caller holds', () => {
    const body = { permissions: 8 };
    assert.equal(validate('RoleModifySchema', body), body);
    assert.deepEqual(body, { permissions: '8' });
  });

  it('gives the same canonical body when its canonical form is validated again', () => {
    for (const row of ACCEPTED) {
      const again = structuredClone(row.canonical);
      assert.deepEqual(validate(row.schema, again), row.canonical, row.title);
    }
  });
});
