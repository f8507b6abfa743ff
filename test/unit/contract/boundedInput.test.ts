import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { ValidationError } from '../../../src/domain/errors.js';
import { MAX_FIELD_ERRORS } from '../../../src/contract/formErrors.js';
import { validate } from '../../../src/contract/validate.js';
import type { SchemaName } from '../../../src/contract/index.js';
import { expectInvalid, leafTree } from './expectInvalid.js';

/** The error `validate` throws, with how long it took and the size of the JSON body it answers with. */
function timedFailure(name: SchemaName, body: unknown): { error: ValidationError; ms: number; bytes: number } {
  const started = performance.now();
  try {
    validate(name, body);
  } catch (error) {
    const ms = performance.now() - started;
    assert.ok(error instanceof ValidationError);
    return { error, ms, bytes: Buffer.byteLength(JSON.stringify(error.toDiscordJson())) };
  }
  return assert.fail('the body was accepted');
}

/** Number of `_errors` leaves in an errors tree. */
function leafCount(tree: unknown): number {
  if (typeof tree !== 'object' || tree === null) return 0;
  return Object.entries(tree).reduce((count, [key, child]) => count + (key === '_errors' ? 1 : leafCount(child)), 0);
}

function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
}

describe('bounded input', () => {
  describe('huge arrays', () => {
    it('refuses 450,000 sticker_ids in well under 50 ms with a small error body', () => {
      const body = { content: 'hi', sticker_ids: Array.from({ length: 450_000 }, (_, index) => index) };
      validate('MessageCreateSchema', { content: 'warm the compiled validator' });
      const { error, ms, bytes } = timedFailure('MessageCreateSchema', body);
      assert.ok(ms < 50, `took ${ms.toFixed(1)} ms`);
      assert.ok(bytes < 4096, `error body of ${bytes} bytes`);
      assert.deepEqual(
        error.fieldErrors,
        leafTree('sticker_ids', 'BASE_TYPE_MAX_LENGTH', 'Must be 3 or fewer in length.'),
      );
    });

    it('checks the items of an array within its limit, naming each bad one', () => {
      assert.deepEqual(expectInvalid('MessageCreateSchema', { sticker_ids: ['1', 2.5] }), {
        sticker_ids: { '1': { _errors: [{ code: 'NUMBER_TYPE_COERCE', message: 'Value "2.5" is not snowflake.' }] } },
      });
    });

    it('refuses a map past its size without looking at each entry', () => {
      const overrides = Object.fromEntries(
        Array.from({ length: 600 }, (_, index) => [String(index + 1), { muted: 1 }]),
      );
      const { error, bytes } = timedFailure('UserGuildSettingsSchema', { channel_overrides: overrides });
      assert.ok(bytes < 4096, `error body of ${bytes} bytes`);
      assert.deepEqual(Object.keys(error.fieldErrors), ['channel_overrides']);
    });
  });

  describe('many bad fields', () => {
    it(`reports at most ${MAX_FIELD_ERRORS} fields, keeping the first ones`, () => {
      const embeds = Array.from({ length: 10 }, () => ({ title: 1, description: 2, url: 3, color: 'x' }));
      const { error, bytes } = timedFailure('MessageCreateSchema', { embeds });
      assert.equal(leafCount(error.fieldErrors), MAX_FIELD_ERRORS);
      assert.ok((error.fieldErrors['embeds'] as Record<string, unknown>)['0']);
      assert.ok(bytes < 4096, `error body of ${bytes} bytes`);
    });

    it('cuts a long map key in the errors tree', () => {
      const key = '9'.repeat(5_000);
      const { bytes } = timedFailure('UserGuildSettingsSchema', { channel_overrides: { [key]: { muted: 'yes' } } });
      assert.ok(bytes < 1024, `error body of ${bytes} bytes`);
    });
  });

  describe('unknown fields', () => {
    it('are dropped from the body, at the top and nested, before it reaches an actor', () => {
      const body = {
        content: 'hi',
        smuggled: { deep: nested(50) },
        message_reference: { message_id: '1', extra: 'x' },
        embeds: [{ title: 't', footer: { text: 'f', extra: [1, 2, 3] } }],
      };
      const valid = validate('MessageCreateSchema', body);
      assert.deepEqual(valid, {
        content: 'hi',
        message_reference: { message_id: '1' },
        embeds: [{ title: 't', footer: { text: 'f' } }],
      });
    });

    it('are dropped inside map values, which are still validated', () => {
      const body = { channel_overrides: { '10': { muted: true, junk: nested(100) } } };
      assert.deepEqual(validate('UserGuildSettingsSchema', body), { channel_overrides: { '10': { muted: true } } });
      assert.deepEqual(expectInvalid('UserGuildSettingsSchema', { channel_overrides: { '10': { muted: 'no' } } }), {
        channel_overrides: {
          '10': { muted: { _errors: [{ code: 'BASE_TYPE_BOOLEAN', message: 'Must be either true or false.' }] } },
        },
      });
    });

    it('refuses channel_overrides keyed by anything but a channel id', () => {
      const tree = expectInvalid('UserGuildSettingsSchema', { channel_overrides: { general: { muted: true } } });
      assert.deepEqual(Object.keys(tree), ['channel_overrides']);
    });
  });

  describe('user settings', () => {
    it("accept Discord's custom status shape, nulls and an ISO expiry included", () => {
      const custom_status = { text: 'away', emoji_id: null, emoji_name: '🌙', expires_at: '2030-01-01T00:00:00.000Z' };
      assert.deepEqual(validate('UserSettingsSchema', { custom_status }), { custom_status });
      validate('UserSettingsSchema', {
        custom_status: { text: null, emoji_id: null, emoji_name: null, expires_at: null },
      });
    });

    it('bound the custom status text (128) and emoji name (32)', () => {
      assert.deepEqual(expectInvalid('UserSettingsSchema', { custom_status: { text: 'x'.repeat(129) } }), {
        custom_status: {
          text: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 128 or fewer in length.' }] },
        },
      });
      assert.deepEqual(
        Object.keys(expectInvalid('UserSettingsSchema', { custom_status: { emoji_name: 'e'.repeat(33) } })),
        ['custom_status'],
      );
    });

    it('refuse a deeply nested value in a known custom status field', () => {
      assert.deepEqual(Object.keys(expectInvalid('UserSettingsSchema', { custom_status: { text: nested(2_000) } })), [
        'custom_status',
      ]);
    });

    it('drop a deeply nested unknown custom status field instead of storing it', () => {
      const body = { custom_status: { text: 'hi', a: nested(2_000) } };
      assert.deepEqual(validate('UserSettingsSchema', body), { custom_status: { text: 'hi' } });
    });

    it('bound guild folders, their names and guild ids, and accept a folder of one with nulls', () => {
      const lone = { id: null, name: null, color: null, guild_ids: ['1'] };
      validate('UserSettingsSchema', { guild_folders: [lone] });
      const tree = expectInvalid('UserSettingsSchema', {
        guild_folders: [{ ...lone, name: 'n'.repeat(101), guild_ids: Array.from({ length: 201 }, () => '1') }],
      });
      assert.deepEqual(Object.keys((tree['guild_folders'] as Record<string, object>)['0'] ?? {}).sort(), [
        'guild_ids',
        'name',
      ]);
    });
  });
});
