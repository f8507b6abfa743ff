import assert from 'node:assert/strict';
import { BinaryReader, WireType } from '@bufbuild/protobuf/wire';
import { Capability } from '../../../actors/session/capabilities.js';
import { readyPayloads, type ReadyInput } from '../../../actors/session/readyPayload.js';
import type { Identity } from '../../../actors/session/sessionRecord.js';
import { guildCreateJson } from '../../../actors/session/userGuild.js';

const SELF = '100';
const FRIEND = '200';
const MEMBER = '300';
const GUILD = '4194304000000';
const DM = '4194304000001';

const guild = {
  id: GUILD,
  name: 'Guild',
  icon: null,
  owner_id: SELF,
  features: [],
  roles: [{ id: GUILD, name: '@everyone' }],
  emojis: [],
  stickers: [],
  channels: [{ id: '5', type: 0, name: 'general' }],
  threads: [],
  members: [
    { user: { id: SELF, username: 'me' }, roles: [] },
    { user: { id: MEMBER, username: 'member' }, roles: [] },
  ],
  presences: [],
  voice_states: [],
  member_count: 2,
  joined_at: '2024-01-01T00:00:00.000Z',
  large: false,
  lazy: true,
  premium_subscription_count: 0,
};

function input(capabilities: number, bot = false): ReadyInput {
  return {
    version: 9,
    sessionId: 's'.repeat(32),
    resumeGatewayUrl: 'ws://gw',
    userId: SELF,
    userJson: JSON.stringify({ id: SELF, username: 'me', bot }),
    bot,
    applicationId: SELF,
    shard: undefined,
    guildIds: [GUILD],
    guildJsons: [JSON.stringify(guild)],
    privateChannelsJson: JSON.stringify([{ id: DM, type: 1, recipients: [{ id: FRIEND, username: 'friend' }] }]),
    relationshipsJson: JSON.stringify([
      { id: FRIEND, type: 1, nickname: null, user: { id: FRIEND, username: 'friend' } },
    ]),
    userSettingsJson: JSON.stringify({ status: 'idle', locale: 'fr', theme: 'light', guild_folders: [] }),
    // One for a guild in READY, one for a guild it no longer lists, and the DM settings ("@me").
    guildSettingsJson: JSON.stringify([
      { guild_id: GUILD, muted: true },
      { guild_id: '4194304000009', muted: true },
      { guild_id: null, muted: false },
    ]),
    readStatesJson: '[]',
    status: 'online',
    propertiesJson: '{"browser":"Fermi"}',
    capabilities,
  };
}

type Json = Record<string, unknown>;
const ready = (capabilities: number, bot = false): Json =>
  JSON.parse(readyPayloads(input(capabilities, bot)).ready) as Json;
const first = (value: unknown): Json => (value as Json[])[0] ?? {};

/** The fields of a protobuf message: field number → raw value (varint) or bytes (length-delimited). */
function protoFields(bytes: Uint8Array): Map<number, number | Uint8Array> {
  const reader = new BinaryReader(bytes);
  const fields = new Map<number, number | Uint8Array>();
  while (reader.pos < reader.len) {
    const [fieldNo, wireType] = reader.tag();
    fields.set(fieldNo, wireType === WireType.Varint ? reader.int32() : reader.bytes());
  }
  return fields;
}
const nested = (bytes: unknown, ...path: number[]): unknown =>
  path.reduce<unknown>((at, fieldNo) => protoFields(at as Uint8Array).get(fieldNo), bytes);

describe('READY by capabilities', () => {
  it('VERSIONED_READ_STATES makes read_state {version, partial, entries}, a bare array without it', () => {
    assert.deepEqual(ready(Capability.VERSIONED_READ_STATES)['read_state'], {
      version: 0,
      partial: false,
      entries: [],
    });
    assert.deepEqual(ready(0)['read_state'], []);
  });

  it('read_state carries the stored read states as entries, versioned or bare', () => {
    const entries = [{ id: DM, last_message_id: '4194304000005', mention_count: 2, last_pin_timestamp: null }];
    const withStates = (capabilities: number): Json =>
      JSON.parse(readyPayloads({ ...input(capabilities), readStatesJson: JSON.stringify(entries) }).ready) as Json;
    assert.deepEqual(withStates(Capability.VERSIONED_READ_STATES)['read_state'], {
      version: 0,
      partial: false,
      entries,
    });
    assert.deepEqual(withStates(0)['read_state'], entries);
  });

  it('VERSIONED_USER_GUILD_SETTINGS makes user_guild_settings versioned, a bare array without it', () => {
    // Only entries of guilds READY lists: Jank Client looks each one's guild up.
    const entries = [{ guild_id: GUILD, muted: true }];
    const versioned = ready(Capability.VERSIONED_USER_GUILD_SETTINGS)['user_guild_settings'];
    assert.deepEqual(versioned, { version: 0, partial: false, entries });
    assert.deepEqual(ready(0)['user_guild_settings'], entries);
  });

  describe('DEDUPE_USER_OBJECTS', () => {
    const d = ready(Capability.DEDUPE_USER_OBJECTS);

    it('collects the other users in `users` and adds id references beside the embedded objects', () => {
      assert.deepEqual((d['users'] as Json[]).map((user) => user['id']).sort(), [FRIEND, MEMBER]);
      const dm = first(d['private_channels']);
      assert.deepEqual(dm['recipient_ids'], [FRIEND]);
      assert.equal(first(dm['recipients'])['id'], FRIEND, 'web clients read recipients');
      assert.equal(first(d['relationships'])['user_id'], FRIEND);
    });

    it('moves members into merged_members aligned with guilds, and presences into merged_presences', () => {
      assert.equal('members' in first(d['guilds']), false);
      const merged = d['merged_members'] as Json[][];
      assert.equal(merged.length, 1);
      assert.deepEqual(
        merged[0]?.map((member) => [member['user_id'], (member['user'] as Json)['id'], member['guild_id']]),
        [
          [SELF, SELF, GUILD],
          [MEMBER, MEMBER, GUILD],
        ],
      );
      assert.deepEqual(d['merged_presences'], { guilds: [[]], friends: [] });
    });

    it('keeps members inline and adds no id lists without the bit', () => {
      const legacy = ready(0);
      assert.equal((first(legacy['guilds'])['members'] as unknown[]).length, 2);
      assert.equal('recipient_ids' in first(legacy['private_channels']), false);
      assert.equal('merged_presences' in legacy, false);
      // The user's own member per guild, with `user`: what Jank Client needs whatever the bits.
      assert.deepEqual(
        (legacy['merged_members'] as Json[][]).map((list) => list.map((member) => (member['user'] as Json)['id'])),
        [[SELF]],
      );
    });
  });

  describe('PRIORITIZED_READY_PAYLOAD', () => {
    const both = Capability.DEDUPE_USER_OBJECTS | Capability.PRIORITIZED_READY_PAYLOAD;

    it('keeps only the own member in READY and sends the rest in READY_SUPPLEMENTAL', () => {
      const payloads = readyPayloads(input(both));
      const d = JSON.parse(payloads.ready) as Json;
      assert.deepEqual(
        (d['merged_members'] as Json[][]).map((list) => list.map((member) => member['user_id'])),
        [[SELF]],
      );
      assert.equal('voice_states' in first(d['guilds']), false);
      assert.ok(payloads.supplemental !== undefined);
      const supplemental = JSON.parse(payloads.supplemental) as Json;
      assert.deepEqual(supplemental['guilds'], [
        { id: GUILD, voice_states: [], activity_instances: [], embedded_activities: [] },
      ]);
      assert.deepEqual(
        (supplemental['merged_members'] as Json[][]).map((list) => list.map((member) => member['user_id'])),
        [[MEMBER]],
      );
      assert.deepEqual(supplemental['merged_presences'], { guilds: [[]], friends: [] });
      for (const key of ['lazy_private_channels', 'disclose', 'game_invites']) assert.deepEqual(supplemental[key], []);
    });

    it('is ignored without DEDUPE_USER_OBJECTS, and absent it sends no READY_SUPPLEMENTAL', () => {
      assert.equal(readyPayloads(input(Capability.PRIORITIZED_READY_PAYLOAD)).supplemental, undefined);
      assert.equal(readyPayloads(input(Capability.DEDUPE_USER_OBJECTS)).supplemental, undefined);
    });
  });

  it('USER_SETTINGS_PROTO adds user_settings_proto: base64 PreloadedUserSettings with status, locale and theme', () => {
    const d = ready(Capability.USER_SETTINGS_PROTO);
    const bytes = new Uint8Array(Buffer.from(d['user_settings_proto'] as string, 'base64'));
    const text = (value: unknown): string => Buffer.from(value as Uint8Array).toString('utf8');
    assert.equal(text(nested(bytes, 11, 1, 1)), 'idle');
    assert.equal(text(nested(bytes, 12, 1, 1)), 'fr');
    assert.equal(nested(bytes, 13, 1), 2, 'light theme');
    // Jank Client sends the bit but reads user_settings.guild_folders: the JSON settings stay.
    assert.deepEqual((d['user_settings'] as Json)['guild_folders'], []);
    assert.equal('user_settings_proto' in ready(0), false);
  });

  it('CLIENT_STATE_V2 moves plain guild fields into properties with data_mode "full"', () => {
    const v2 = first(ready(Capability.CLIENT_STATE_V2)['guilds']);
    assert.equal(v2['data_mode'], 'full');
    assert.equal('name' in v2, false);
    assert.deepEqual(v2['properties'], {
      id: GUILD,
      name: 'Guild',
      icon: null,
      owner_id: SELF,
      features: [],
      premium_subscription_count: 0,
    });
    assert.equal((v2['channels'] as unknown[]).length, 1);
    assert.equal((v2['roles'] as unknown[]).length, 1);
    const legacy = first(ready(0)['guilds']);
    assert.equal(legacy['name'], 'Guild');
    assert.equal('properties' in legacy, false);
    assert.equal('data_mode' in legacy, false);
  });

  it('always includes the fields user clients read, whatever the bits', () => {
    for (const capabilities of [0, 16381]) {
      const d = ready(capabilities);
      for (const key of [
        'private_channels',
        'relationships',
        'read_state',
        'user_guild_settings',
        'user_settings',
        'sessions',
        'session_id',
        'resume_gateway_url',
        'users',
        'merged_members',
        'country_code',
        'geo_ordered_rtc_regions',
        'api_code_version',
        'session_type',
        'auth_session_id_hash',
        '_trace',
      ]) {
        assert.ok(key in d, `${key} missing with capabilities ${capabilities}`);
      }
      assert.deepEqual(d['experiments'], []);
      assert.deepEqual(d['guild_experiments'], []);
    }
  });

  it('is the same READY when the Guild sent the own member apart, for every shape', () => {
    const own = JSON.stringify(guild.members[0]);
    for (const capabilities of [0, 16, 48, 1024, 16381]) {
      const apart = readyPayloads({ ...input(capabilities), ownMemberJsons: [own] });
      const parsed = readyPayloads(input(capabilities));
      assert.equal(apart.ready, parsed.ready, `capabilities ${capabilities}`);
      assert.equal(apart.supplemental, parsed.supplemental, `capabilities ${capabilities}`);
    }
  });

  it('gives bots the same READY whatever capabilities they send', () => {
    assert.deepEqual(ready(16381, true), ready(0, true));
    assert.deepEqual(ready(16381, true)['guilds'], [{ id: GUILD, unavailable: true }]);
    assert.equal(readyPayloads(input(16381, true)).supplemental, undefined);
  });
});

describe('GUILD_CREATE of a guild joined after READY', () => {
  const identity = (capabilities: number, bot = false): Identity => ({
    userId: SELF,
    caller: { userId: SELF, bot, rights: '0' },
    intents: 1,
    intentsText: '1',
    shardId: 0,
    shardCount: 0,
    capabilities,
  });

  it('has the guild shape the session chose at Identify, members included', () => {
    const live = JSON.parse(guildCreateJson(identity(16381), JSON.stringify(guild))) as Json;
    assert.equal(live['data_mode'], 'full');
    assert.equal((live['properties'] as Json)['name'], 'Guild');
    assert.equal((live['members'] as unknown[]).length, 2, 'Jank Client reads GUILD_CREATE members');
    assert.deepEqual(live['voice_states'], []);
  });

  it('is left as the Guild actor wrote it for bots and legacy clients', () => {
    assert.equal(guildCreateJson(identity(16381, true), JSON.stringify(guild)), JSON.stringify(guild));
    assert.deepEqual(JSON.parse(guildCreateJson(identity(0), JSON.stringify(guild))), guild);
  });
});
