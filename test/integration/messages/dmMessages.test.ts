import assert from 'node:assert/strict';
import { api, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { fails, openDm, send, users, type ApiMessage } from './messageFixtures.js';

describe('DM messages', () => {
  let server: TestServer;
  let ann: TestUser;
  let bob: TestUser;
  let eve: TestUser;
  let dm: string;

  before(async () => {
    server = await startTestServer();
    [ann, bob, eve] = (await users(server.api, 3, 'dm')) as [TestUser, TestUser, TestUser];
    dm = await openDm(server.api, ann, bob);
  });

  after(async () => {
    await server.stop();
  });

  it('sends a message whose author is the caller’s public user', async () => {
    const message = await send(server.api, ann, dm, { content: 'hello bob', nonce: '123' });
    assert.equal(message.content, 'hello bob');
    assert.equal(message.channel_id, dm);
    assert.equal(message.type, 0);
    assert.equal(message.author.id, ann.id);
    assert.equal(message.author.username, ann.username);
    assert.equal(message.nonce, '123');
    assert.equal('email' in message.author, false);
    assert.ok(!Number.isNaN(Date.parse(message.timestamp)));
  });

  it('lets the other recipient read the message', async () => {
    const sent = await send(server.api, ann, dm, { content: 'read me' });
    const got = await api<ApiMessage>(server.api, 'GET', `/channels/${dm}/messages/${sent.id}`, { token: bob.token });
    assert.equal(got.content, 'read me');
  });

  it('refuses a user who is not a recipient with 50001', async () => {
    const error = await fails(server.api, 'POST', `/channels/${dm}/messages`, eve, 403, { content: 'let me in' });
    assert.equal(error.code, 50_001);
    const listing = await fails(server.api, 'GET', `/channels/${dm}/messages`, eve, 403);
    assert.equal(listing.code, 50_001);
  });

  it('answers 404 10003 for a channel that does not exist', async () => {
    const error = await fails(server.api, 'GET', '/channels/123456789012345678/messages', ann, 404);
    assert.equal(error.code, 10_003);
  });

  it('does not let a recipient delete the other’s message (no moderators in DMs)', async () => {
    const sent = await send(server.api, ann, dm, { content: 'mine' });
    const error = await fails(server.api, 'DELETE', `/channels/${dm}/messages/${sent.id}`, bob, 403);
    assert.equal(error.code, 50_013);
  });

  it('refuses bulk delete in a DM with 50003', async () => {
    const a = await send(server.api, ann, dm, { content: 'a' });
    const b = await send(server.api, ann, dm, { content: 'b' });
    const error = await fails(server.api, 'POST', `/channels/${dm}/messages/bulk-delete`, ann, 403, {
      messages: [a.id, b.id],
    });
    assert.equal(error.code, 50_003);
  });

  it('returns the first message again for a repeated nonce', async () => {
    const first = await send(server.api, bob, dm, { content: 'once', nonce: 'retry-1' });
    const again = await send(server.api, bob, dm, { content: 'once', nonce: 'retry-1' });
    assert.equal(again.id, first.id);
  });

  it('writes the channel’s last message id through to the DM list', async () => {
    const sent = await send(server.api, ann, dm, { content: 'latest' });
    // last_message_id is written through shortly after a burst of messages (one write per burst).
    let lastMessageId: string | null = null;
    for (let attempt = 0; attempt < 100 && lastMessageId !== sent.id; attempt += 1) {
      const channels = await api<{ id: string; last_message_id: string | null }[]>(
        server.api,
        'GET',
        '/users/@me/channels',
        {
          token: bob.token,
        },
      );
      lastMessageId = channels.find((channel) => channel.id === dm)?.last_message_id ?? null;
      if (lastMessageId !== sent.id) await new Promise((resolve) => setTimeout(resolve, 20));
    }
    assert.equal(lastMessageId, sent.id, `DM ${dm}: last_message_id not written through`);
  });
});
