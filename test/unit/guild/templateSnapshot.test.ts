import assert from 'node:assert/strict';
import { GuildState } from '../../../actors/guild/GuildState.js';
import { serializeGuild } from '../../../actors/guild/templateSnapshot.js';
import type { ChannelRecord, RoleRecord } from '../../../actors/runtime/ports/records.js';

function role(id: string, name: string, position: number, managed = false): RoleRecord {
  return {
    id,
    guild_id: 'g',
    name,
    permissions: '1024',
    color: 0,
    hoist: false,
    mentionable: false,
    managed,
    position,
    icon: null,
    unicode_emoji: null,
    flags: 0,
  };
}

function channel(id: string, type: number, position: number, extra: Partial<ChannelRecord> = {}): ChannelRecord {
  return {
    id,
    guild_id: 'g',
    type,
    name: `c${id}`,
    position,
    parent_id: null,
    permission_overwrites: [],
    recipient_ids: [],
    owner_id: null,
    last_message_id: null,
    last_pin_timestamp: null,
    fields: { topic: 't' },
    created_at: '2024-01-01T00:00:00.000Z',
    ...extra,
  };
}

describe('serializeGuild', () => {
  const state = new GuildState({
    id: 'g',
    owner_id: 'o',
    name: 'Source',
    icon: null,
    fields: { system_channel_id: '11', afk_timeout: 60 },
    created_at: '2024-01-01T00:00:00.000Z',
  });
  state.putRole(role('g', '@everyone', 0));
  state.putRole(role('r2', 'Mods', 2));
  state.putRole(role('r1', 'Members', 1));
  state.putRole(role('bot', 'Bot', 3, true));
  state.putChannel(channel('10', 4, 0));
  state.putChannel(
    channel('11', 0, 0, {
      parent_id: '10',
      permission_overwrites: [
        { id: 'g', type: 0, allow: '0', deny: '1024' },
        { id: 'r2', type: 0, allow: '1024', deny: '0' },
        { id: 'bot', type: 0, allow: '1024', deny: '0' },
        { id: 'u1', type: 1, allow: '1024', deny: '0' },
      ],
    }),
  );
  const snapshot = serializeGuild(state);

  it('numbers roles by position from 0 (@everyone) and leaves managed roles out', () => {
    assert.deepEqual(
      snapshot.roles.map((r) => [r.id, r.name]),
      [
        [0, '@everyone'],
        [1, 'Members'],
        [2, 'Mods'],
      ],
    );
  });

  it('numbers channels from 1 and maps parents, the system channel and role overwrites to those numbers', () => {
    assert.deepEqual(
      snapshot.channels.map((c) => [c.id, c.type, c.parent_id]),
      [
        [1, 4, null],
        [2, 0, 1],
      ],
    );
    assert.deepEqual(snapshot.channels[1]?.permission_overwrites, [
      { id: 0, type: 0, allow: '0', deny: '1024' },
      { id: 2, type: 0, allow: '1024', deny: '0' },
    ]);
    assert.equal(snapshot.channels[1]?.['topic'], 't');
    assert.equal(snapshot.system_channel_id, 2);
    assert.equal(snapshot.afk_timeout, 60);
  });

  it('is stable: the same guild serializes to the same JSON (is_dirty compares it)', () => {
    assert.equal(JSON.stringify(serializeGuild(state)), JSON.stringify(snapshot));
  });
});
