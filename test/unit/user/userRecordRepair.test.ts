import assert from 'node:assert/strict';
import type { UserRecord } from '../../../actors/runtime/ports/records.js';
import { repairUserRecord } from '../../../actors/user/userRecordRepair.js';
import { aUser } from '../../contract/records.js';

/** `{ a: { a: ... { leaf: true } } }`, `depth` levels deep. */
function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let level = 0; level < depth; level += 1) value = { a: value };
  return value;
}

/** A record as an older version could have stored it: fields as given, unchecked. */
function stored(overrides: Record<string, unknown>): UserRecord {
  return Object.assign(aUser(), overrides);
}

/** A record every later step handles: it clones and serializes without throwing. */
function assertUsable(user: UserRecord): void {
  assert.doesNotThrow(() => structuredClone(user));
  assert.doesNotThrow(() => JSON.stringify(user));
}

describe('repairUserRecord', () => {
  it('gives back a valid record unchanged', () => {
    const user = aUser({
      settings: {
        theme: 'light',
        custom_status: { text: 'away', emoji_name: null, emoji_id: null, expires_at: null },
        guild_folders: [{ id: 1, name: 'Games', color: 255, guild_ids: ['10', '11'] }],
        guild_positions: ['10', '11'],
      },
      guild_settings: {
        '10': { muted: true, version: 3, channel_overrides: { '20': { muted: true, message_notifications: 1 } } },
        '@me': { message_notifications: 0, version: 1 },
      },
      notes: { '30': 'a friend' },
      relationships: { '30': 1, '31': 2 },
      revoked_tokens: ['digest'],
      theme_colors: [1, 2],
      backup_codes: [{ code: 'abcd1234', consumed: false }],
      bio: 'hello',
      pronouns: 'they/them',
    });
    assert.deepEqual(repairUserRecord(structuredClone(user)), user);
  });

  it('drops a custom status field nested 5,000 levels deep, keeping the rest of it', () => {
    const user = stored({ settings: { theme: 'light', custom_status: { text: 'hi', junk: nested(5_000) } } });
    const repaired = repairUserRecord(user);
    assert.deepEqual(repaired.settings, { theme: 'light', custom_status: { text: 'hi' } });
    assertUsable(repaired);
  });

  it('drops a setting that is too deep, too large or of another shape, to its default', () => {
    const user = stored({
      settings: {
        theme: nested(5_000),
        custom_status: { text: nested(3_000) },
        guild_positions: Array.from({ length: 10_000 }, (_, index) => String(index)),
        locale: 'x'.repeat(1_000),
        developer_mode: true,
        not_a_setting: nested(10),
      },
    });
    const repaired = repairUserRecord(user);
    assert.deepEqual(repaired.settings, { developer_mode: true });
    assertUsable(repaired);
  });

  it('repairs per-guild settings: deep overrides stripped, oversized maps and bad guild keys dropped', () => {
    const overrides = Object.fromEntries(
      Array.from({ length: 600 }, (_, index) => [String(index + 1), { muted: true }]),
    );
    const user = stored({
      guild_settings: {
        '10': { muted: true, channel_overrides: { '20': { muted: false, deep: nested(5_000) } } },
        '11': { muted: true, channel_overrides: overrides },
        '12': nested(5_000),
        'not-a-guild': { muted: true },
      },
    });
    const repaired = repairUserRecord(user);
    assert.deepEqual(repaired.guild_settings, {
      '10': { muted: true, channel_overrides: { '20': { muted: false } } },
      '11': { muted: true },
      '12': {},
    });
    assertUsable(repaired);
  });

  it('bounds notes, relationships, revoked tokens, profile strings and theme colours', () => {
    const user = stored({
      notes: { '30': 'fine', '31': 'n'.repeat(257), '32': nested(5_000) },
      relationships: { '30': 1, '31': nested(5_000), x: 1 },
      revoked_tokens: [...Array.from({ length: 600 }, (_, index) => `t${index}`), nested(5_000)],
      theme_colors: nested(5_000),
      backup_codes: [{ code: 'abcd1234', consumed: true }, nested(5_000)],
      bio: 'b'.repeat(2_000),
      pronouns: nested(5_000),
      locale: nested(5_000),
    });
    const repaired = repairUserRecord(user);
    assert.deepEqual(repaired.notes, { '30': 'fine' });
    assert.deepEqual(repaired.relationships, { '30': 1 });
    assert.equal(repaired.revoked_tokens.length, 500);
    assert.equal(repaired.revoked_tokens.at(-1), 't599');
    assert.equal(repaired.theme_colors, null);
    assert.deepEqual(repaired.backup_codes, [{ code: 'abcd1234', consumed: true }]);
    assert.equal(repaired.bio, '');
    assert.equal(repaired.pronouns, '');
    assert.equal(repaired.locale, 'en-US');
    assertUsable(repaired);
  });

  it('keeps a field it does not know while it is bounded, and drops it once too deep', () => {
    const repaired = repairUserRecord(stored({ newer_field: { a: [1, 2] }, runaway: nested(5_000) }));
    assert.deepEqual((repaired as unknown as Record<string, unknown>)['newer_field'], { a: [1, 2] });
    assert.equal('runaway' in repaired, false);
    assertUsable(repaired);
  });
});
