import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { Stores } from '../../../actors/runtime/ports/stores.js';
import { ConflictError, ServiceUnavailableError } from '../../../src/domain/errors.js';
import { createSqliteStores } from '../../../src/store/sqlite/createSqliteStores.js';
import { storesContract } from '../../contract/storesContract.js';
import { aMessage, aReaction, aUser, nextId } from '../../contract/records.js';

describe('SqliteStores', () => {
  let dir: string;
  let files = 0;
  /** A path for a database file of its own, in this suite's temp dir. */
  const freshPath = () => join(dir, `stores-${(files += 1)}.db`);

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-sqlite-'));
  });

  after(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  describe('contract', () => {
    storesContract(() => Promise.resolve(createSqliteStores(freshPath())));
  });

  describe('on a file', () => {
    let stores: Stores | undefined;

    afterEach(async () => {
      await stores?.close();
      stores = undefined;
    });

    it('keeps what was written across a close and a reopen', async () => {
      const path = freshPath();
      const user = aUser();
      const first = createSqliteStores(path);
      await first.users.create(user);
      await first.close();
      stores = createSqliteStores(path);
      assert.deepEqual(await stores.users.get(user.id), user);
    });

    it('creates the directory of a new database file', async () => {
      stores = createSqliteStores(join(dir, 'nested', `deeper-${nextId()}`, 'chorus.db'));
      assert.equal(await stores.users.get(nextId()), undefined);
    });

    it('refuses a second message with the same id in a channel and keeps the first', async () => {
      stores = createSqliteStores(freshPath());
      const message = aMessage({ channel_id: nextId() });
      await stores.messages.insert(message);
      await assert.rejects(stores.messages.insert({ ...message, content: 'other' }), ConflictError);
      assert.deepEqual(await stores.messages.get(message.channel_id, message.id), message);
    });

    it('pages correctly with cursors beyond the INTEGER range', async () => {
      stores = createSqliteStores(freshPath());
      const message = aMessage({ channel_id: nextId() });
      await stores.messages.insert(message);
      const maxSnowflake = '18446744073709551615';
      assert.deepEqual(await stores.messages.list(message.channel_id, { limit: 5, before: maxSnowflake }), [message]);
      assert.deepEqual(await stores.messages.list(message.channel_id, { limit: 5, after: maxSnowflake }), []);
      assert.deepEqual(await stores.messages.list(message.channel_id, { limit: 0 }), []);
    });

    it("reads a page's reactions in one go, each message's in the order added, none for the others", async () => {
      stores = createSqliteStores(freshPath());
      const channel = nextId();
      const [older, skipped, newer] = [nextId(), nextId(), nextId()];
      for (const id of [older, skipped, newer]) await stores.messages.insert(aMessage({ channel_id: channel, id }));
      const first = aReaction({ channel_id: channel, message_id: newer, emoji: 'b' });
      const second = aReaction({ channel_id: channel, message_id: newer, emoji: 'a' });
      for (const reaction of [first, second, aReaction({ channel_id: channel, message_id: skipped })]) {
        await stores.messages.addReaction(reaction);
      }
      const { messages } = stores;
      const pageReactions = (ids: string[]) => {
        assert.ok('listPageReactions' in messages, 'SQLite reads a page of reactions in one query');
        return messages.listPageReactions(channel, ids);
      };
      const page = await pageReactions([newer, older]);
      assert.deepEqual(page, [[first, second], []]);
      assert.deepEqual(page[0], await messages.listReactions(channel, newer));
      assert.deepEqual(await pageReactions([]), []);
    });

    it('rejects calls after close with ServiceUnavailableError', async () => {
      const closed = createSqliteStores(freshPath());
      await closed.close();
      await assert.rejects(closed.users.get(nextId()), ServiceUnavailableError);
      await assert.rejects(closed.messages.insert(aMessage({ channel_id: nextId() })), ServiceUnavailableError);
      await closed.close(); // closing twice is harmless
    });
  });
});
