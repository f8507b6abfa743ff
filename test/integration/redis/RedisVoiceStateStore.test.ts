import assert from 'node:assert/strict';
import type { StoredVoiceState } from '../../../actors/runtime/ports/voiceStateStore.js';
import { InMemorySessionIndex } from '../../../src/store/memory/InMemorySessionIndex.js';
import { RedisVoiceStateStore } from '../../../src/store/redis/RedisVoiceStateStore.js';
import { redisForSuite } from './redisTestKit.js';

const speaker: StoredVoiceState = {
  sessionId: 'a1b2c3',
  userId: '111111111111111111',
  channelId: '222222222222222222',
  selfMute: true,
  selfDeaf: false,
  selfVideo: true,
  suppress: true,
  requestToSpeakTimestamp: '2026-11-26T04:00:00.000Z',
};
const listener: StoredVoiceState = {
  ...speaker,
  sessionId: 'd4e5f6',
  userId: '333333333333333333',
  selfMute: false,
  selfVideo: false,
  suppress: false,
  requestToSpeakTimestamp: null,
};

describe('voice state stores (the Guild writes its voice states through; an activation reads them back)', () => {
  const { prefix, redis } = redisForSuite();
  const stores = [
    { name: 'RedisVoiceStateStore', open: () => new RedisVoiceStateStore(redis(), { keyPrefix: prefix }) },
    { name: 'InMemorySessionIndex', open: () => new InMemorySessionIndex<StoredVoiceState>() },
  ];

  for (const { name, open } of stores) {
    it(`${name}: keeps every field per session and guild, replaces, removes and forgets a guild`, async () => {
      const store = open();
      await store.add('g1', speaker);
      await store.add('g1', listener);
      await store.add('g2', speaker);
      const byId = (states: StoredVoiceState[]) => [...states].sort((x, y) => (x.sessionId < y.sessionId ? -1 : 1));
      assert.deepEqual(byId(await store.list('g1')), [speaker, listener]);
      const moved = { ...listener, channelId: '444444444444444444' };
      await store.add('g1', moved);
      await store.remove('g1', [speaker.sessionId, 'never-there']);
      assert.deepEqual(await store.list('g1'), [moved]);
      await store.delete('g1');
      assert.deepEqual(await store.list('g1'), []);
      assert.deepEqual(await store.list('g2'), [speaker]);
    });
  }

  it('RedisVoiceStateStore: skips a stored value it cannot read rather than failing the activation', async () => {
    const store = new RedisVoiceStateStore(redis(), { keyPrefix: prefix });
    await store.add('g3', speaker);
    await redis().hSet(`${prefix}guild-voice:g3`, { broken: 'not json', partial: '{"u":"1"}' });
    assert.deepEqual(await store.list('g3'), [speaker]);
  });
});
