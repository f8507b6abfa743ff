import assert from 'node:assert/strict';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { call, type ApiChannel } from './httpClient.js';

const THUMBS_UP = encodeURIComponent('👍');

/** Discord-shaped error body, as far as these tests read it. */
interface ErrorBody {
  code?: number;
  message?: string;
}

describe('blocking, as Discord applies it to reactions and group DMs', () => {
  let server: TestServer;
  let base: string;

  before(async () => {
    server = await startTestServer();
    base = server.api;
  });
  after(async () => {
    await server.stop();
  });

  const block = async (blocker: TestUser, blocked: TestUser): Promise<void> => {
    const put = await call(base, 'PUT', `/users/@me/relationships/${blocked.id}`, {
      auth: blocker.token,
      body: { type: 2 },
    });
    assert.equal(put.status, 204);
  };
  const unblock = async (blocker: TestUser, blocked: TestUser): Promise<void> => {
    const removed = await call(base, 'DELETE', `/users/@me/relationships/${blocked.id}`, { auth: blocker.token });
    assert.equal(removed.status, 204);
  };
  const openChannel = async (owner: TestUser, recipients: TestUser[]): Promise<ApiChannel> => {
    const opened = await call<ApiChannel>(base, 'POST', '/users/@me/channels', {
      auth: owner.token,
      body: { recipients: recipients.map((user) => user.id) },
    });
    assert.equal(opened.status, 200);
    return opened.body;
  };
  const post = async (author: TestUser, channelId: string): Promise<string> => {
    const sent = await call<{ id: string }>(base, 'POST', `/channels/${channelId}/messages`, {
      auth: author.token,
      body: { content: `from ${author.id}` },
    });
    assert.equal(sent.status, 200);
    return sent.body.id;
  };
  const react = (user: TestUser, channelId: string, messageId: string) =>
    call<ErrorBody>(base, 'PUT', `/channels/${channelId}/messages/${messageId}/reactions/${THUMBS_UP}/@me`, {
      auth: user.token,
    });
  const reactors = async (viewer: TestUser, channelId: string, messageId: string): Promise<string[]> => {
    const listed = await call<{ id: string }[]>(
      base,
      'GET',
      `/channels/${channelId}/messages/${messageId}/reactions/${THUMBS_UP}`,
      { auth: viewer.token },
    );
    assert.equal(listed.status, 200);
    return listed.body.map((user) => user.id).sort();
  };
  const addRecipient = (adder: TestUser, channelId: string, added: TestUser) =>
    call<ErrorBody>(base, 'PUT', `/channels/${channelId}/recipients/${added.id}`, { auth: adder.token });
  const recipientsOf = async (viewer: TestUser, channelId: string): Promise<string[]> => {
    const channel = await call<ApiChannel & { recipients: { id: string }[] }>(base, 'GET', `/channels/${channelId}`, {
      auth: viewer.token,
    });
    assert.equal(channel.status, 200);
    return channel.body.recipients.map((user) => user.id).sort();
  };

  describe('reactions', () => {
    it('refuses a reaction to the DM messages of a user who blocked the reacting user with 90001, until unblocked', async () => {
      const [author, reader] = [await registerUser(base, 'author'), await registerUser(base, 'reader')];
      const dm = await openChannel(author, [reader]);
      const authored = await post(author, dm.id);
      const read = await post(reader, dm.id);
      await block(author, reader);

      const refused = await react(reader, dm.id, authored);
      assert.equal(refused.status, 403);
      assert.deepEqual([refused.body.code, refused.body.message], [90_001, 'Reaction was blocked']);
      assert.deepEqual(await reactors(author, dm.id, authored), []);
      // The blocker was not blocked: reacting to the blocked user's message is theirs to do.
      assert.equal((await react(author, dm.id, read)).status, 204);

      await unblock(author, reader);
      assert.equal((await react(reader, dm.id, authored)).status, 204);
      assert.deepEqual(await reactors(author, dm.id, authored), [reader.id]);
    });

    it('refuses it in a group DM too, while the other members still react', async () => {
      const [author, blocked, other] = [
        await registerUser(base, 'author'),
        await registerUser(base, 'blocked'),
        await registerUser(base, 'other'),
      ];
      const group = await openChannel(author, [blocked, other]);
      const authored = await post(author, group.id);
      await block(author, blocked);

      const refused = await react(blocked, group.id, authored);
      assert.deepEqual([refused.status, refused.body.code], [403, 90_001]);
      assert.equal((await react(other, group.id, authored)).status, 204);
      assert.deepEqual(await reactors(author, group.id, authored), [other.id]);
    });
  });

  describe('group DM recipients', () => {
    it('refuses to add a user whom the adder blocked, or who blocked the adder, with 50007 and adds nobody', async () => {
      const [owner, member, third, blockedByOwner, blockerOfOwner] = [
        await registerUser(base, 'owner'),
        await registerUser(base, 'member'),
        await registerUser(base, 'third'),
        await registerUser(base, 'blockedbyowner'),
        await registerUser(base, 'blockerofowner'),
      ];
      const group = await openChannel(owner, [member, third]);
      await block(owner, blockedByOwner);
      await block(blockerOfOwner, owner);

      for (const added of [blockedByOwner, blockerOfOwner]) {
        const refused = await addRecipient(owner, group.id, added);
        assert.equal(refused.status, 403, `adding ${added.id}`);
        assert.deepEqual([refused.body.code, refused.body.message], [50_007, 'Cannot send messages to this user']);
      }
      assert.deepEqual(await recipientsOf(owner, group.id), [member.id, third.id].sort());

      // The block is between two users: another member, who has none with them, may add them.
      assert.equal((await addRecipient(member, group.id, blockedByOwner)).status, 204);
      assert.deepEqual(await recipientsOf(member, group.id), [blockedByOwner.id, owner.id, third.id].sort());
    });

    it('refuses to open a group DM with a user the owner blocked, or who blocked the owner, with 50007', async () => {
      const [owner, friend, blockedByOwner, blockerOfOwner] = [
        await registerUser(base, 'owner'),
        await registerUser(base, 'friend'),
        await registerUser(base, 'blockedbyowner'),
        await registerUser(base, 'blockerofowner'),
      ];
      await block(owner, blockedByOwner);
      await block(blockerOfOwner, owner);
      for (const added of [blockedByOwner, blockerOfOwner]) {
        const refused = await call<ErrorBody>(base, 'POST', '/users/@me/channels', {
          auth: owner.token,
          body: { recipients: [friend.id, added.id] },
        });
        assert.deepEqual([refused.status, refused.body.code], [403, 50_007], `a group with ${added.id}`);
      }
      const listed = await call<ApiChannel[]>(base, 'GET', '/users/@me/channels', { auth: owner.token });
      assert.deepEqual(listed.body, []);
    });

    it('answers a caller outside the group as before, whatever the blocks', async () => {
      const [owner, member, third, outsider] = [
        await registerUser(base, 'owner'),
        await registerUser(base, 'member'),
        await registerUser(base, 'third'),
        await registerUser(base, 'outsider'),
      ];
      const group = await openChannel(owner, [member, third]);
      await block(outsider, member);
      const refused = await addRecipient(outsider, group.id, member);
      assert.deepEqual([refused.status, refused.body.code], [403, 50_001]);
    });
  });
});
