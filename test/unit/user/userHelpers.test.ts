import assert from 'node:assert/strict';
import { pageOfGuildIds } from '../../../actors/user/guildListing.js';
import { imageHash } from '../../../src/domain/imageHash.js';
import { botUsername, checkUsername } from '../../../actors/user/usernames.js';
import { UserSessions } from '../../../actors/user/userSessions.js';
import { GatewayIntent } from '../../../src/domain/intents.js';
import {
  guildSettingsJson,
  mergeGuildSettings,
  mergeSettings,
  settingsJson,
} from '../../../actors/user/userSettings.js';
import { ValidationError } from '../../../src/domain/errors.js';

describe('user helpers', () => {
  describe('UserSessions', () => {
    it('sends user events only to shard 0 sessions that asked for them', () => {
      const sessions = new UserSessions();
      sessions.attach('a', 0, String(1n << 12n));
      sessions.attach('b', 1, String(1n << 12n));
      sessions.attach('c', 0, '0');
      assert.deepEqual(
        sessions.recipientsOf({ event: 'MESSAGE_CREATE', dataJson: '{}', intent: GatewayIntent.DIRECT_MESSAGES }),
        ['a'],
      );
      assert.deepEqual(sessions.recipientsOf({ event: 'USER_UPDATE', dataJson: '{}', intent: 0 }), ['a', 'c']);
      sessions.detach('a');
      assert.deepEqual(sessions.all(), ['b', 'c']);
    });
  });

  describe('checkUsername', () => {
    it('trims and collapses spaces', () => {
      assert.equal(checkUsername('  alice   smith ', 'username'), 'alice smith');
    });

    it('refuses characters that break mentions and tag logins, naming the field', () => {
      assert.throws(
        () => checkUsername('al#ice', 'username'),
        (error: ValidationError) => 'username' in error.fieldErrors,
      );
      assert.throws(() => checkUsername('everyone', 'username'), ValidationError);
      assert.throws(() => checkUsername(' a ', 'username'), ValidationError);
    });

    it('derives a valid bot name from any application name', () => {
      assert.equal(botUsername('My #1 App'), 'My 1 App');
      assert.equal(botUsername('x'), 'xbot');
      assert.equal(botUsername('a'.repeat(40)).length, 32);
    });
  });

  describe('imageHash', () => {
    it('hashes a data URI, marks GIFs animated, keeps hashes and clears on null', () => {
      const png = imageHash('avatar', 'data:image/png;base64,AAAA');
      assert.match(png ?? '', /^[0-9a-f]{32}$/);
      assert.match(imageHash('avatar', 'data:image/gif;base64,AAAA') ?? '', /^a_[0-9a-f]{32}$/);
      assert.equal(imageHash('avatar', png), png);
      assert.equal(imageHash('avatar', null), null);
    });

    it('refuses anything else with a 50035 on the field', () => {
      assert.throws(
        () => imageHash('banner', 'http://example.test/x.png'),
        (error: ValidationError) => 'banner' in error.fieldErrors,
      );
    });
  });

  describe('settings', () => {
    it('overlays stored settings and the locale on the defaults', () => {
      const json = settingsJson(mergeSettings({}, { theme: 'light' }), 'fr');
      assert.equal(json['theme'], 'light');
      assert.equal(json['locale'], 'fr');
      assert.equal(json['afk_timeout'], 600);
    });

    it('merges channel overrides per channel and moves the version on', () => {
      const first = mergeGuildSettings(undefined, { channel_overrides: { '1': { muted: true } } });
      const second = mergeGuildSettings(first, {
        muted: true,
        channel_overrides: { '1': { message_notifications: 2 } },
      });
      const json = guildSettingsJson('9', second);
      assert.equal(json['muted'], true);
      assert.equal(json['version'], 2);
      assert.deepEqual(json['channel_overrides'], [
        { channel_id: '1', message_notifications: 2, muted: true, mute_config: null, collapsed: false },
      ]);
    });
  });

  describe('pageOfGuildIds', () => {
    const ids = ['30', '10', '200', '20'];

    it('lists ascending by snowflake, at most `limit`', () => {
      assert.deepEqual(pageOfGuildIds(ids, '', '', 3), ['10', '20', '30']);
    });

    it('pages after and before exclusively', () => {
      assert.deepEqual(pageOfGuildIds(ids, '', '20', 10), ['30', '200']);
      assert.deepEqual(pageOfGuildIds(ids, '200', '', 2), ['20', '30']);
    });
  });
});
