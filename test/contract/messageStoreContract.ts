import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';

import type { MessageRecord } from '../../actors/runtime/ports/records.js';
import type { Stores } from '../../actors/runtime/ports/stores.js';
import { snowflakeAt } from '../../src/domain/snowflake.js';
import { idsOf } from './contractAssertions.js';
import { aMessage, aReaction, nextId } from './records.js';

const DAY_MS = 86_400_000;

/** MessageStore cases of the storage contract. */
export function messageStoreContract(stores: () => Stores): void {
  const messages = () => stores().messages;

  /** Inserts `count` messages into a fresh channel; returns the channel id and the messages oldest first. */
  async function aChannelWith(count: number): Promise<{ channelId: string; sent: MessageRecord[] }> {
    const channelId = nextId();
    const sent: MessageRecord[] = [];
    for (let i = 0; i < count; i += 1) sent.push(aMessage({ channel_id: channelId }));
    for (const message of sent) await messages().insert(message);
    return { channelId, sent };
  }

  /** The ids of `sent` from index `from` (inclusive) to `to` (exclusive), newest first. */
  const newestFirst = (sent: MessageRecord[], from = 0, to = sent.length) => idsOf(sent.slice(from, to)).reverse();

  describe('messages', () => {
    it('returns an inserted message and undefined for an unknown one', async () => {
      const channelId = nextId();
      const message = aMessage({
        channel_id: channelId,
        guild_id: nextId(),
        mention_ids: [nextId()],
        embeds: [{ title: 'hello', fields: [{ name: 'a', value: 'b' }] }],
        message_reference: { message_id: nextId(), channel_id: channelId },
        nonce: 'n-1',
      });
      await messages().insert(message);
      assert.deepEqual(await messages().get(channelId, message.id), message);
      assert.equal(await messages().get(channelId, nextId()), undefined);
      assert.equal(await messages().get(nextId(), message.id), undefined);
    });

    it('replaces a message on update', async () => {
      const { channelId, sent } = await aChannelWith(1);
      const edited = { ...(sent[0] as MessageRecord), content: 'edited', edited_timestamp: new Date().toISOString() };
      await messages().update(edited);
      assert.deepEqual(await messages().get(channelId, edited.id), edited);
    });

    it('deletes the given messages and keeps the others', async () => {
      const { channelId, sent } = await aChannelWith(4);
      await messages().delete(channelId, [sent[0]?.id ?? '', sent[2]?.id ?? '']);
      assert.equal(await messages().get(channelId, sent[0]?.id ?? ''), undefined);
      assert.deepEqual(idsOf(await messages().list(channelId, { limit: 10 })), [sent[3]?.id, sent[1]?.id]);
    });

    it('deletes a message together with its reactions', async () => {
      const { channelId, sent } = await aChannelWith(2);
      const [gone, kept] = [sent[0] as MessageRecord, sent[1] as MessageRecord];
      await messages().addReaction(aReaction({ channel_id: channelId, message_id: gone.id }));
      const keptReaction = aReaction({ channel_id: channelId, message_id: kept.id });
      await messages().addReaction(keptReaction);
      await messages().delete(channelId, [gone.id]);
      assert.deepEqual(await messages().listReactions(channelId, gone.id), []);
      await messages().insert(gone); // an id that comes back starts with no reactions
      assert.deepEqual(await messages().listReactions(channelId, gone.id), []);
      assert.deepEqual(await messages().listReactions(channelId, kept.id), [keptReaction]);
    });
  });

  describe('pages', () => {
    it('returns the newest page first', async () => {
      const { channelId, sent } = await aChannelWith(5);
      assert.deepEqual(idsOf(await messages().list(channelId, { limit: 3 })), newestFirst(sent, 2));
      assert.deepEqual(idsOf(await messages().list(channelId, { limit: 50 })), newestFirst(sent));
    });

    it('returns the newest ids below before, newest first', async () => {
      const { channelId, sent } = await aChannelWith(6);
      const page = await messages().list(channelId, { limit: 2, before: sent[4]?.id ?? '' });
      assert.deepEqual(idsOf(page), newestFirst(sent, 2, 4));
    });

    it('returns the oldest ids above after, newest first', async () => {
      const { channelId, sent } = await aChannelWith(6);
      const page = await messages().list(channelId, { limit: 2, after: sent[1]?.id ?? '' });
      assert.deepEqual(idsOf(page), newestFirst(sent, 2, 4));
    });

    it('returns an empty page past either end and for an empty channel', async () => {
      const { channelId, sent } = await aChannelWith(3);
      assert.deepEqual(await messages().list(channelId, { limit: 5, before: sent[0]?.id ?? '' }), []);
      assert.deepEqual(await messages().list(channelId, { limit: 5, after: sent[2]?.id ?? '' }), []);
      assert.deepEqual(await messages().list(nextId(), { limit: 5 }), []);
    });

    it('walks a channel backwards with before and forwards with after', async () => {
      const { channelId, sent } = await aChannelWith(23);
      const backwards: string[] = [];
      for (let page = await messages().list(channelId, { limit: 10 }); page.length > 0;) {
        backwards.push(...idsOf(page));
        page = await messages().list(channelId, { limit: 10, before: page.at(-1)?.id ?? '' });
      }
      assert.deepEqual(backwards, newestFirst(sent));

      const forwards: string[] = [];
      for (let page = await messages().list(channelId, { limit: 10, after: '0' }); page.length > 0;) {
        forwards.push(...idsOf(page).reverse());
        page = await messages().list(channelId, { limit: 10, after: page[0]?.id ?? '' });
      }
      assert.deepEqual(forwards, idsOf(sent));
    });

    it('orders ids numerically, across a change in digit count and across months', async () => {
      // Channel older than its messages; ids from 18 digits (mid-2022) to 19 and on through later months.
      const start = Date.UTC(2022, 6, 1);
      const channelId = (BigInt(snowflakeAt(start)) + BigInt(randomInt(1 << 22))).toString();
      const ascending = [
        '999999999999999990',
        '999999999999999999',
        '1000000000000000000',
        '1000000000000000007',
        snowflakeAt(start + 45 * DAY_MS),
        snowflakeAt(start + 90 * DAY_MS),
        snowflakeAt(start + 200 * DAY_MS),
      ];
      for (const id of [...ascending].reverse()) await messages().insert(aMessage({ id, channel_id: channelId }));

      assert.deepEqual(idsOf(await messages().list(channelId, { limit: 10 })), [...ascending].reverse());
      assert.deepEqual(idsOf(await messages().list(channelId, { limit: 3, before: '1000000000000000007' })), [
        '1000000000000000000',
        '999999999999999999',
        '999999999999999990',
      ]);
      assert.deepEqual(idsOf(await messages().list(channelId, { limit: 3, after: '999999999999999999' })), [
        ascending[4],
        '1000000000000000007',
        '1000000000000000000',
      ]);
    });
  });

  describe('pins', () => {
    it('lists pinned messages newest pin first', async () => {
      const { channelId, sent } = await aChannelWith(3);
      const [older, , newer] = sent as [MessageRecord, MessageRecord, MessageRecord];
      await messages().update({ ...newer, pinned: true });
      await messages().update({ ...older, pinned: true });
      assert.deepEqual(idsOf(await messages().listPinned(channelId)), [older.id, newer.id]);
      assert.deepEqual(await messages().listPinned(nextId()), []);
    });

    it('keeps a pin in place when the pinned message is edited', async () => {
      const { channelId, sent } = await aChannelWith(2);
      const [first, second] = sent as [MessageRecord, MessageRecord];
      await messages().update({ ...first, pinned: true });
      await messages().update({ ...second, pinned: true });
      await messages().update({ ...first, pinned: true, content: 'edited' });
      const pins = await messages().listPinned(channelId);
      assert.deepEqual(idsOf(pins), [second.id, first.id]);
      assert.equal(pins[1]?.content, 'edited');
    });

    it('drops an unpinned message from the pins and puts a re-pinned one first', async () => {
      const { channelId, sent } = await aChannelWith(2);
      const [first, second] = sent as [MessageRecord, MessageRecord];
      await messages().update({ ...first, pinned: true });
      await messages().update({ ...second, pinned: true });
      await messages().update({ ...first, pinned: false });
      assert.deepEqual(idsOf(await messages().listPinned(channelId)), [second.id]);
      await messages().update({ ...first, pinned: true });
      assert.deepEqual(idsOf(await messages().listPinned(channelId)), [first.id, second.id]);
    });

    it('lists a message inserted already pinned, and forgets a deleted one', async () => {
      const channelId = nextId();
      const pinned = aMessage({ channel_id: channelId, pinned: true });
      await messages().insert(pinned);
      assert.deepEqual(await messages().listPinned(channelId), [pinned]);
      await messages().delete(channelId, [pinned.id]);
      assert.deepEqual(await messages().listPinned(channelId), []);
    });
  });

  describe('reactions', () => {
    async function aReactedMessage() {
      const { channelId, sent } = await aChannelWith(1);
      const messageId = sent[0]?.id ?? '';
      const [alice, bob] = [nextId(), nextId()];
      // Added in an order that is neither by user, by emoji nor by time stamp.
      const added = [
        aReaction({
          channel_id: channelId,
          message_id: messageId,
          emoji: '🔥',
          user_id: bob,
          created_at: '2024-01-03T00:00:00.000Z',
        }),
        aReaction({
          channel_id: channelId,
          message_id: messageId,
          emoji: '👍',
          user_id: bob,
          created_at: '2024-01-01T00:00:00.000Z',
        }),
        aReaction({
          channel_id: channelId,
          message_id: messageId,
          emoji: 'party:123',
          user_id: alice,
          created_at: '2024-01-02T00:00:00.000Z',
        }),
        aReaction({
          channel_id: channelId,
          message_id: messageId,
          emoji: '🔥',
          user_id: alice,
          created_at: '2024-01-04T00:00:00.000Z',
        }),
      ];
      for (const reaction of added) await messages().addReaction(reaction);
      return { channelId, messageId, alice, bob, added };
    }

    it('lists reactions in the order they were added', async () => {
      const { channelId, messageId, added } = await aReactedMessage();
      assert.deepEqual(await messages().listReactions(channelId, messageId), added);
    });

    it('keeps one reaction, in its first place, when the same user adds the same emoji again', async () => {
      const { channelId, messageId, added } = await aReactedMessage();
      await messages().addReaction({ ...(added[0] as (typeof added)[number]), created_at: '2024-02-01T00:00:00.000Z' });
      assert.deepEqual(await messages().listReactions(channelId, messageId), added);
    });

    it("removes one user's reaction", async () => {
      const { channelId, messageId, bob, added } = await aReactedMessage();
      await messages().removeReactions(channelId, messageId, '🔥', bob);
      assert.deepEqual(await messages().listReactions(channelId, messageId), added.slice(1));
    });

    it('removes every reaction of one emoji', async () => {
      const { channelId, messageId, added } = await aReactedMessage();
      await messages().removeReactions(channelId, messageId, '🔥');
      assert.deepEqual(await messages().listReactions(channelId, messageId), added.slice(1, 3));
    });

    it('removes all reactions of a message and no others', async () => {
      const first = await aReactedMessage();
      const second = await aReactedMessage();
      await messages().removeReactions(first.channelId, first.messageId);
      assert.deepEqual(await messages().listReactions(first.channelId, first.messageId), []);
      assert.deepEqual(await messages().listReactions(second.channelId, second.messageId), second.added);
    });
  });
}
