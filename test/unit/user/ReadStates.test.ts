import assert from 'node:assert/strict';

import type { ReadStateRecord } from '../../../actors/runtime/ports/readStateStore.js';
import { afterAck, afterMessage, readStateJson } from '../../../actors/user/ReadStates.js';

const state: ReadStateRecord = {
  user_id: '1',
  channel_id: '2',
  last_message_id: '500',
  mention_count: 3,
  last_pin_timestamp: null,
};
const ack = (messageId: string, mentionCount = 0, manual = false) => ({
  channelId: '2',
  messageId,
  mentionCount,
  manual,
});
const message = (messageId: string, own: boolean) => ({ channelId: '2', guildId: '9', messageId, own });

describe('ReadStates', () => {
  describe('afterAck', () => {
    it('moves to a newer message with the mention count the client sent (0 when none)', () => {
      assert.deepEqual(afterAck(state, ack('600')), { ...state, last_message_id: '600', mention_count: 0 });
      assert.deepEqual(afterAck(state, ack('1000', 1)), { ...state, last_message_id: '1000', mention_count: 1 });
    });

    it('ignores an older message unless the ack is a manual "mark unread"', () => {
      assert.equal(afterAck(state, ack('499')), undefined);
      assert.deepEqual(afterAck(state, ack('499', 1, true)), { ...state, last_message_id: '499', mention_count: 1 });
    });
  });

  describe('afterMessage', () => {
    it('reads up to the user’s own message and clears the mentions', () => {
      assert.deepEqual(afterMessage(state, message('501', true)), {
        ...state,
        last_message_id: '501',
        mention_count: 0,
      });
    });

    it('counts a newer mention once more and leaves the last read message', () => {
      assert.deepEqual(afterMessage(state, message('1000', false)), { ...state, mention_count: 4 });
    });

    it('changes nothing for a message at or before the one already read', () => {
      assert.equal(afterMessage(state, message('500', false)), undefined);
      assert.equal(afterMessage(state, message('40', true)), undefined);
    });
  });

  it('gives READY’s entry shape', () => {
    assert.deepEqual(readStateJson(state), {
      id: '2',
      last_message_id: '500',
      mention_count: 3,
      last_pin_timestamp: null,
    });
  });
});
