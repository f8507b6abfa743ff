import assert from 'node:assert/strict';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { openDm, send, users } from './messageFixtures.js';

/** DIRECT_MESSAGES | DIRECT_MESSAGE_REACTIONS | DIRECT_MESSAGE_TYPING | MESSAGE_CONTENT. */
const DM_INTENTS = (1 << 12) | (1 << 13) | (1 << 14) | (1 << 15);

describe('DM message events', () => {
  let server: TestServer;
  let ann: TestUser;
  let bob: TestUser;
  let gateway: GatewayClient;

  before(async () => {
    server = await startTestServer();
    [ann, bob] = (await users(server.api, 2, 'dmev')) as [TestUser, TestUser];
    ({ client: gateway } = await GatewayClient.identified(server.gatewayUrl, bob.token, { intents: DM_INTENTS }));
  });

  after(async () => {
    await gateway.close();
    await server.stop();
  });

  it('announces a new DM with CHANNEL_CREATE before its first MESSAGE_CREATE', async () => {
    const dm = await openDm(server.api, ann, bob);
    const from = gateway.frames.length;
    const sent = await send(server.api, ann, dm, { content: 'first words' });
    const created = await gateway.waitForDispatch<{ id: string; recipients: { id: string }[] }>(
      'CHANNEL_CREATE',
      (d) => d.id === dm,
      { from },
    );
    assert.deepEqual(
      created.d.recipients.map((user) => user.id),
      [ann.id],
    );
    const message = await gateway.waitForDispatch<{ id: string; content: string; author: { id: string } }>(
      'MESSAGE_CREATE',
      (d) => d.id === sent.id,
      { from },
    );
    assert.equal(message.d.content, 'first words');
    assert.equal(message.d.author.id, ann.id);
    assert.ok((created.s ?? 0) < (message.s ?? 0), 'CHANNEL_CREATE comes first');
    assert.equal('guild_id' in message.d, false);
  });

  it('sends reactions and typing in a DM to the recipient', async () => {
    const dm = await openDm(server.api, ann, bob);
    const sent = await send(server.api, ann, dm, { content: 'react to me' });
    const from = gateway.frames.length;
    await api(server.api, 'PUT', `/channels/${dm}/messages/${sent.id}/reactions/${encodeURIComponent('👍')}/@me`, {
      token: ann.token,
      expect: 204,
    });
    const reaction = await gateway.waitForDispatch<{ message_id: string; user_id: string; emoji: { name: string } }>(
      'MESSAGE_REACTION_ADD',
      (d) => d.message_id === sent.id,
      { from },
    );
    assert.equal(reaction.d.user_id, ann.id);
    assert.equal(reaction.d.emoji.name, '👍');
    await api(server.api, 'POST', `/channels/${dm}/typing`, { token: ann.token, expect: 204 });
    const typing = await gateway.waitForDispatch<{ channel_id: string; user_id: string; timestamp: number }>(
      'TYPING_START',
      (d) => d.channel_id === dm,
      { from },
    );
    assert.equal(typing.d.user_id, ann.id);
    assert.equal(typeof typing.d.timestamp, 'number');
  });
});
