import assert from 'node:assert/strict';
import { expectInvalid, expectValid, leafTree } from './expectInvalid.js';

const REQUIRED = { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };
const NOT_INT = (value: string) => ({ code: 'NUMBER_TYPE_COERCE', message: `Value "${value}" is not int.` });

describe('schema fields', () => {
  describe('required fields', () => {
    it('lists each missing required field of RegisterSchema (consent, username)', () => {
      assert.deepEqual(expectInvalid('RegisterSchema', {}), {
        consent: { _errors: [REQUIRED] },
        username: { _errors: [REQUIRED] },
      });
    });

    it('requires name on ChannelCreateSchema but not on ChannelModifySchema', () => {
      expectValid('ChannelModifySchema', { topic: 'x' });
      assert.deepEqual(expectInvalid('ChannelCreateSchema', { topic: 'x' }), { name: { _errors: [REQUIRED] } });
      expectValid('ChannelCreateSchema', { name: 'general', type: 0 });
    });

    it('requires every key of a stream in VoiceVideoSchema', () => {
      const missing = [
        'rid',
        'ssrc',
        'active',
        'quality',
        'rtx_ssrc',
        'max_bitrate',
        'max_framerate',
        'max_resolution',
      ];
      const body = { audio_ssrc: 1, video_ssrc: 2, streams: [{ type: 'video' }] };
      assert.deepEqual(expectInvalid('VoiceVideoSchema', body), {
        streams: { '0': Object.fromEntries(missing.map((key) => [key, { _errors: [REQUIRED] }])) },
      });
    });
  });

  describe('unknown properties', () => {
    it('are accepted, as Discord ignores them, and dropped from the body', () => {
      const body = { content: 'hi', enforce_nonce: true, poll: { question: {} } };
      expectValid('MessageCreateSchema', body);
      assert.deepEqual(body, { content: 'hi' });
    });
  });

  describe('nullable fields', () => {
    it('accept null where the spec says nullable', () => {
      expectValid('UserModifySchema', { avatar: null, banner: null });
      expectValid('UserSettingsSchema', { custom_status: null });
      expectValid('UserGuildSettingsSchema', { mute_config: null, guild_id: null });
      expectValid('SelectProtocolSchema', {
        protocol: 'udp',
        data: 'x',
        codecs: [{ name: 'opus', type: 'audio', priority: 1, payload_type: 120, rtx_payload_type: null }],
      });
    });

    it('take null elsewhere as absent, and still reject a value of the wrong type', () => {
      const body = { bio: null, username: 'alice' };
      expectValid('UserModifySchema', body);
      assert.deepEqual(body, { username: 'alice' });
      assert.deepEqual(
        expectInvalid('UserModifySchema', { bio: 5 }),
        leafTree('bio', 'BASE_TYPE_STRING', 'Must be a string.'),
      );
    });
  });

  describe('integer and number fields', () => {
    it('rejects a fraction or a non-numeric string for an integer, and takes a numeric string as its number', () => {
      assert.deepEqual(expectInvalid('UserProfileModifySchema', { theme_colors: [1.5, 2] }), {
        theme_colors: { '0': { _errors: [NOT_INT('1.5')] } },
      });
      assert.deepEqual(expectInvalid('ChannelModifySchema', { position: 'one' }), {
        position: { _errors: [NOT_INT('one')] },
      });
      const body = { position: '1' };
      expectValid('ChannelModifySchema', body);
      assert.deepEqual(body, { position: 1 });
    });

    it('accepts a fraction where the spec says number', () => {
      expectValid('IdentifySchema', { token: 't', properties: {}, intents: 513, shard: [0, 1] });
    });
  });

  describe('choices', () => {
    it('enforces the numeric choices of ChannelModifySchema.type and RelationshipPutSchema.type', () => {
      expectValid('ChannelModifySchema', { type: 255 });
      assert.equal(expectInvalid('ChannelModifySchema', { type: 16 })['type'] !== undefined, true);
      expectValid('RelationshipPutSchema', { type: 4 });
      assert.deepEqual(
        expectInvalid('RelationshipPutSchema', { type: 5 }),
        leafTree('type', 'BASE_TYPE_CHOICES', 'Value must be one of (1, 2, 3, 4).'),
      );
    });

    it('enforces Status inside a presence', () => {
      expectValid('ActivitySchema', { status: 'dnd' });
      assert.deepEqual(
        expectInvalid('ActivitySchema', { status: 'away' }),
        leafTree('status', 'BASE_TYPE_CHOICES', 'Value must be one of (dnd, idle, invisible, offline, online).'),
      );
    });

    it('accepts only true for LazyRequestSchema.typing and only 0 for notify_highlights', () => {
      expectValid('LazyRequestSchema', { guild_id: '1', typing: true });
      assert.deepEqual(
        expectInvalid('LazyRequestSchema', { guild_id: '1', typing: false }),
        leafTree('typing', 'BASE_TYPE_CHOICES', 'Value must be one of (true).'),
      );
      assert.deepEqual(
        expectInvalid('UserGuildSettingsSchema', { notify_highlights: 1 }),
        leafTree('notify_highlights', 'BASE_TYPE_CHOICES', 'Value must be one of (0).'),
      );
    });
  });

  describe('formats', () => {
    it('checks RegisterSchema.email', () => {
      expectValid('RegisterSchema', { consent: true, username: 'alice', email: 'alice@example.com' });
      assert.deepEqual(
        expectInvalid('RegisterSchema', { consent: true, username: 'alice', email: 'alice' }),
        leafTree('email', 'EMAIL_TYPE_INVALID_EMAIL', 'Not a well formed email address.'),
      );
    });

    it('checks date-time of an embed timestamp and of request_to_speak_timestamp', () => {
      expectValid('MessageCreateSchema', { embeds: [{ timestamp: '2024-05-01T12:00:00.000Z' }] });
      assert.deepEqual(
        expectInvalid('VoiceStateUpdateSchema', {
          self_deaf: false,
          self_mute: false,
          request_to_speak_timestamp: 'now',
        }),
        leafTree('request_to_speak_timestamp', 'DATE_TIME_TYPE_PARSE', 'Could not parse now. Should be ISO8601.'),
      );
    });
  });

  describe('fields that take more than one type', () => {
    it('accepts SelectProtocolSchema.data as a string or a complete object', () => {
      expectValid('SelectProtocolSchema', { protocol: 'webrtc', data: 'v=0' });
      expectValid('SelectProtocolSchema', {
        protocol: 'udp',
        data: { address: '127.0.0.1', mode: 'xsalsa20_poly1305', port: 5000 },
      });
      assert.deepEqual(expectInvalid('SelectProtocolSchema', { protocol: 'udp', data: { address: 'a', mode: 'm' } }), {
        data: { port: { _errors: [REQUIRED] } },
      });
    });

    it('accepts ApplicationCreateSchema.team_id as a string or an integer, nothing else', () => {
      expectValid('ApplicationCreateSchema', { name: 'bot', team_id: '1' });
      expectValid('ApplicationCreateSchema', { name: 'bot', team_id: 1 });
      assert.deepEqual(
        expectInvalid('ApplicationCreateSchema', { name: 'bot', team_id: true }),
        leafTree('team_id', 'NUMBER_TYPE_COERCE', 'Value "true" is not snowflake.'),
      );
    });
  });

  describe('map-shaped objects', () => {
    it('validates each value of UserGuildSettingsSchema.channel_overrides under its channel id', () => {
      assert.deepEqual(
        expectInvalid('UserGuildSettingsSchema', { channel_overrides: { '42': { mute_config: { end_time: 1 } } } }),
        {
          channel_overrides: { '42': { mute_config: { selected_time_window: { _errors: [REQUIRED] } } } },
        },
      );
    });
  });
});
