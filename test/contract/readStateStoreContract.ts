import assert from 'node:assert/strict';

import type { ReadStateRecord } from '../../actors/runtime/ports/readStateStore.js';
import type { Stores } from '../../actors/runtime/ports/stores.js';
import { nextId } from './records.js';

/** A read state of `userId` in a fresh channel. */
function aReadState(userId: string, fields: Partial<ReadStateRecord> = {}): ReadStateRecord {
  return {
    user_id: userId,
    channel_id: nextId(),
    last_message_id: nextId(),
    mention_count: 0,
    last_pin_timestamp: null,
    ...fields,
  };
}

/** ReadStateStore cases of the storage contract. */
export function readStateStoreContract(stores: () => Stores): void {
  const readStates = () => stores().readStates;

  it('lists a user’s saved read states in channel id order, and no other user’s', async () => {
    const userId = nextId();
    const first = aReadState(userId, { mention_count: 3 });
    const second = aReadState(userId, { last_pin_timestamp: '2026-01-02T03:04:05.678000+00:00' });
    await readStates().save([second]);
    await readStates().save([first]);
    await readStates().save([aReadState(nextId())]);
    assert.deepEqual(await readStates().list(userId), [first, second]);
    assert.deepEqual(await readStates().list(nextId()), []);
  });

  it('replaces the state of a channel saved again, and saves several at once', async () => {
    const userId = nextId();
    const [a, b] = [aReadState(userId), aReadState(userId)];
    await readStates().save([a, b]);
    const moved = { ...a, last_message_id: nextId(), mention_count: 2 };
    await readStates().save([moved]);
    assert.deepEqual(await readStates().list(userId), [moved, b]);
  });

  it('keeps channel ids past 2^53 exact', async () => {
    const userId = nextId();
    const state = aReadState(userId, { channel_id: '9223372036854775807', last_message_id: '9223372036854775806' });
    await readStates().save([state]);
    assert.deepEqual(await readStates().list(userId), [state]);
  });

  it('takes an empty save', async () => {
    await readStates().save([]);
  });
}
