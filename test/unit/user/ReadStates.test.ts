import assert from 'node:assert/strict';

import type { ReadStateRecord, ReadStateStore } from '../../../actors/runtime/ports/readStateStore.js';
import { ReadStates, afterAck, afterMessage, readStateJson } from '../../../actors/user/ReadStates.js';

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

  describe('ReadStates', () => {
    /** A store that records each save (the engines run the storage contract; this watches the writes). */
    const recording = (stored: ReadStateRecord[] = []) => {
      const saves: ReadStateRecord[][] = [];
      const store: ReadStateStore = {
        list: () => Promise.resolve(stored),
        save: (states) => {
          saves.push([...states]);
          return Promise.resolve();
        },
      };
      return { saves, store };
    };

    it('keeps own messages and mentions in memory until a flush writes them at once', async () => {
      const { saves, store } = recording([state]);
      const states = new ReadStates('1', store);
      assert.equal(await states.message(message('600', false)), true, 'first change: schedule a flush');
      assert.equal(await states.message({ ...message('601', true), channelId: '3' }), false);
      assert.equal(saves.length, 0);
      assert.equal((await states.list()).length, 2, 'listed before they are written');
      await states.flush();
      assert.deepEqual(
        saves.map((save) => save.map((entry) => [entry.channel_id, entry.last_message_id, entry.mention_count])),
        [
          [
            ['2', '500', 4],
            ['3', '601', 0],
          ],
        ],
      );
      await states.flush();
      assert.equal(saves.length, 1, 'nothing left to write');
    });

    it('writes an ack at once, with whatever was not written yet', async () => {
      const { saves, store } = recording([state]);
      const states = new ReadStates('1', store);
      await states.message({ ...message('700', true), channelId: '3' });
      assert.equal(await states.ack(ack('800')), true);
      assert.deepEqual(
        saves.map((save) => save.map((entry) => entry.channel_id)),
        [['2', '3']],
      );
      assert.equal(await states.ack(ack('10')), false, 'an older ack changes nothing');
      assert.equal(saves.length, 1);
    });
  });
});
