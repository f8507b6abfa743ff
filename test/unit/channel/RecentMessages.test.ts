import assert from 'node:assert/strict';

import { RECENT_CAPACITY, RecentMessages, type WindowPage } from '../../../actors/channel/RecentMessages.js';
import type { MessageRecord } from '../../../actors/runtime/ports/records.js';
import type { MessageStore } from '../../../actors/runtime/ports/stores.js';
import { aMessage, aReaction, nextId } from '../../contract/records.js';
import { MemoryMessages, MemoryMessagesWithPageReactions } from './MemoryMessages.js';

/** Characters of rendered text RecentMessages keeps per channel (its TEXT_BUDGET_CHARS). */
const TEXT_BUDGET = 512 * 1024;

const idsOf = (page: WindowPage | undefined): string[] | undefined => page?.map((kept) => kept.record.id);

describe('RecentMessages', () => {
  let channelId: string;
  let store: MemoryMessages;
  let recent: RecentMessages;
  /** The store as the channel's commands use it (every write through watch()). */
  let messages: MessageStore;

  beforeEach(() => {
    channelId = nextId();
    store = new MemoryMessages();
    recent = new RecentMessages();
    messages = recent.watch(store);
  });

  /** Stores `count` messages oldest first, straight into the store (before the window is filled). */
  async function seed(count: number): Promise<MessageRecord[]> {
    const records = Array.from({ length: count }, () => aMessage({ channel_id: channelId }));
    for (const record of records) await store.insert(record);
    return records;
  }

  const newest = (limit: number): Promise<WindowPage | undefined> => recent.newest(messages, channelId, { limit });

  describe('serving pages', () => {
    it('fills once from the store and serves the next pages from the window, newest first', async () => {
      const [a, b, c] = await seed(3);
      assert.deepEqual(idsOf(await newest(50)), [c?.id, b?.id, a?.id]);
      assert.deepEqual(idsOf(await newest(2)), [c?.id, b?.id]);
      assert.deepEqual(idsOf(await newest(100)), [c?.id, b?.id, a?.id]);
      assert.equal(store.lists, 1, 'one store read for all three pages');
    });

    it('serves the newest 100 of a longer channel from a window of 100', async () => {
      const records = await seed(RECENT_CAPACITY + 20);
      const expected = records
        .slice(-RECENT_CAPACITY)
        .reverse()
        .map((m) => m.id);
      assert.deepEqual(idsOf(await newest(RECENT_CAPACITY)), expected);
      assert.deepEqual(idsOf(await newest(10)), expected.slice(0, 10));
      assert.equal(store.lists, 1);
    });

    it('does not serve a limit over 100, nor a before or after page, and does not read the store for them', async () => {
      const [a, b] = await seed(3);
      assert.ok(a && b);
      assert.equal(await newest(RECENT_CAPACITY + 1), undefined);
      assert.equal(await recent.newest(messages, channelId, { limit: 50, before: b.id }), undefined);
      assert.equal(await recent.newest(messages, channelId, { limit: 50, after: a.id }), undefined);
      assert.equal(store.lists, 0, 'no fill for a page the window cannot serve');
      await newest(50);
      assert.equal(await newest(RECENT_CAPACITY + 1), undefined, 'not served from a filled, complete window either');
      assert.equal(await recent.newest(messages, channelId, { limit: 50, before: b.id }), undefined);
      assert.equal(await recent.newest(messages, channelId, { limit: 50, after: a.id }), undefined);
    });

    it("keeps each message's reactions, read in one call where the store can", async () => {
      const paged = new MemoryMessagesWithPageReactions();
      for (const [index, plain] of [store, paged].entries()) {
        const cache = new RecentMessages();
        const watched = cache.watch(plain);
        const [a, b] = [aMessage({ channel_id: channelId }), aMessage({ channel_id: channelId })];
        await plain.insert(a);
        await plain.insert(b);
        const first = aReaction({ channel_id: channelId, message_id: a.id, emoji: '👍' });
        const second = aReaction({ channel_id: channelId, message_id: a.id, emoji: '🎉' });
        await plain.addReaction(first);
        await plain.addReaction(second);
        const page = await cache.newest(watched, channelId, { limit: 10 });
        assert.deepEqual(
          page?.map((kept) => kept.reactions),
          [[], [first, second]],
          `store ${index}`,
        );
      }
      assert.equal(paged.pageReactionReads, 1);
    });
  });

  describe('a new message', () => {
    it('goes on top of the window without a store read', async () => {
      const [a, b] = await seed(2);
      await newest(50);
      const c = aMessage({ channel_id: channelId });
      await messages.insert(c);
      assert.deepEqual(idsOf(await newest(50)), [c.id, b?.id, a?.id]);
      assert.equal(store.lists, 1, 'served from the window');
    });

    it('keeps the window at 100, dropping the oldest', async () => {
      const records = await seed(RECENT_CAPACITY);
      await newest(RECENT_CAPACITY);
      const added = aMessage({ channel_id: channelId });
      await messages.insert(added);
      const expected = [
        added.id,
        ...records
          .slice(1)
          .map((m) => m.id)
          .reverse(),
      ];
      assert.deepEqual(idsOf(await newest(RECENT_CAPACITY)), expected);
      assert.equal(store.lists, 1);
    });

    it('drops the kept page texts', async () => {
      await seed(2);
      await newest(2);
      recent.keepPage(2, '[page]');
      assert.equal(recent.pageText(2), '[page]');
      await messages.insert(aMessage({ channel_id: channelId }));
      assert.equal(recent.pageText(2), undefined);
    });

    it('is kept as it was stored, not as the caller changes its record afterwards', async () => {
      await seed(1);
      await newest(10);
      const added = aMessage({ channel_id: channelId, content: 'as stored' });
      await messages.insert(added);
      added.content = 'changed without a store write';
      const [top] = (await newest(10)) ?? [];
      assert.equal(top?.record.content, 'as stored');
    });

    it('older than the top drops the window, so the next page is read again in order', async () => {
      const olderId = nextId();
      const [a, b] = await seed(2);
      await newest(50);
      await messages.insert(aMessage({ channel_id: channelId, id: olderId }));
      assert.deepEqual(idsOf(await newest(50)), [b?.id, a?.id, olderId]);
      assert.equal(store.lists, 2, 'refilled from the store');
    });

    it('whose insert failed drops the window (the store may hold it)', async () => {
      await seed(1);
      await newest(50);
      store.failNextInsert = new Error('timed out');
      const added = aMessage({ channel_id: channelId });
      await assert.rejects(messages.insert(added), /timed out/);
      assert.equal(idsOf(await newest(50))?.[0], added.id);
      assert.equal(store.lists, 2);
    });
  });

  describe('a change drops the window and the kept page texts', () => {
    /** Fills the window with two messages and keeps a page text; returns the messages, newest first. */
    async function filled(): Promise<[MessageRecord, MessageRecord]> {
      const [a, b] = await seed(2);
      assert.ok(a && b);
      await newest(50);
      recent.keepPage(2, '[page]');
      return [b, a];
    }

    function assertRefilled(): void {
      assert.equal(recent.pageText(2), undefined, 'page text dropped');
    }

    it('an edit', async () => {
      const [top] = await filled();
      await messages.update({ ...top, content: 'edited' });
      assertRefilled();
      const page = await newest(50);
      assert.equal(page?.[0]?.record.content, 'edited');
      assert.equal(store.lists, 2);
    });

    it('a delete', async () => {
      const [top, below] = await filled();
      await messages.delete(channelId, [top.id]);
      assertRefilled();
      assert.deepEqual(idsOf(await newest(50)), [below.id]);
      assert.equal(store.lists, 2);
    });

    it('an added reaction', async () => {
      const [top] = await filled();
      const reaction = aReaction({ channel_id: channelId, message_id: top.id });
      await messages.addReaction(reaction);
      assertRefilled();
      assert.deepEqual((await newest(50))?.[0]?.reactions, [reaction]);
      assert.equal(store.lists, 2);
    });

    it('removed reactions', async () => {
      const [a, b] = await seed(2);
      assert.ok(a && b);
      await store.addReaction(aReaction({ channel_id: channelId, message_id: b.id }));
      assert.equal((await newest(50))?.[0]?.reactions.length, 1);
      recent.keepPage(2, '[page]');
      await messages.removeReactions(channelId, b.id);
      assertRefilled();
      assert.deepEqual((await newest(50))?.[0]?.reactions, []);
      assert.equal(store.lists, 2);
    });
  });

  describe('a fill that overlapped a write', () => {
    it('is not kept when a message was inserted while its read was pending', async () => {
      const [a, b] = await seed(2);
      const release = store.holdLists();
      const reading = newest(50);
      assert.equal(store.lists, 1, 'the fill has read the store');
      const added = aMessage({ channel_id: channelId });
      await messages.insert(added);
      release();
      assert.equal(await reading, undefined, 'the overlapped fill does not serve a page (the caller reads the store)');
      assert.deepEqual(idsOf(await newest(50)), [added.id, b?.id, a?.id]);
      assert.equal(store.lists, 2);
    });

    it('is not kept when a message was edited while its read was pending', async () => {
      const [, b] = await seed(2);
      assert.ok(b);
      const release = store.holdLists();
      const reading = newest(50);
      await messages.update({ ...b, content: 'edited' });
      release();
      assert.equal(await reading, undefined);
      assert.equal((await newest(50))?.[0]?.record.content, 'edited');
    });

    it('is not kept past a write that was pending while it read', async () => {
      const [, b] = await seed(2);
      assert.ok(b);
      const release = store.holdUpdates();
      const editing = messages.update({ ...b, content: 'edited' });
      assert.equal((await newest(50))?.[0]?.record.content, b.content, 'read before the edit is stored');
      release();
      await editing;
      assert.equal((await newest(50))?.[0]?.record.content, 'edited');
    });
  });

  describe('kept texts', () => {
    it('refuses texts past the budget', async () => {
      await seed(2);
      const [top, below] = (await newest(50)) ?? [];
      assert.ok(top && below);
      recent.keepText(top, 'x'.repeat(TEXT_BUDGET + 1));
      assert.equal(top.text, undefined);
      recent.keepText(below, '{"id":"1"}');
      assert.equal(below.text, '{"id":"1"}');
    });

    it('keeps page texts for a few limits only', async () => {
      await seed(5);
      await newest(5);
      for (const limit of [1, 2, 3, 4, 5]) recent.keepPage(limit, `[${limit}]`);
      assert.deepEqual(
        [1, 2, 3, 4, 5].map((limit) => recent.pageText(limit)),
        ['[1]', '[2]', '[3]', '[4]', undefined],
      );
    });

    it('frees the budget of page texts a new message dropped', async () => {
      await seed(2);
      await newest(2);
      const large = 'x'.repeat(TEXT_BUDGET * 0.75);
      recent.keepPage(2, large);
      recent.keepPage(1, large);
      assert.equal(recent.pageText(1), undefined, 'over budget');
      await messages.insert(aMessage({ channel_id: channelId }));
      recent.keepPage(1, large);
      assert.equal(recent.pageText(1), large);
    });

    it('frees the budget of the text of a message pushed out of the window', async () => {
      await seed(RECENT_CAPACITY);
      const oldest = (await newest(RECENT_CAPACITY))?.at(-1);
      assert.ok(oldest);
      const large = 'x'.repeat(TEXT_BUDGET * 0.75);
      recent.keepText(oldest, large);
      assert.equal(oldest.text, large);
      await messages.insert(aMessage({ channel_id: channelId }));
      const [top] = (await newest(RECENT_CAPACITY)) ?? [];
      assert.ok(top);
      recent.keepText(top, large);
      assert.equal(top.text, large);
    });
  });
});
