import assert from 'node:assert/strict';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { GatewayClient } from './gatewayClient.js';
import { call, type ApiChannel, type ApiRelationship, type ApiUser } from './httpClient.js';

describe('user events on the gateway', () => {
  let server: TestServer;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  let gateway: GatewayClient;

  before(async () => {
    server = await startTestServer();
    base = server.api;
    alice = await registerUser(base, 'alice');
    bob = await registerUser(base, 'bob');
    gateway = await GatewayClient.connect(server.gatewayUrl, alice.token);
  });
  after(async () => {
    gateway.close();
    await server.stop();
  });

  it('sends USER_UPDATE to the user’s sessions when the account changes', async () => {
    await call(base, 'PATCH', '/users/@me', { auth: alice.token, body: { bio: 'now with events' } });
    const update = await gateway.waitFor<ApiUser>('USER_UPDATE', (d) => d.bio === 'now with events');
    assert.equal(update.id, alice.id);
  });

  it('sends CHANNEL_CREATE to the user who opens a DM', async () => {
    const dm = await call<ApiChannel>(base, 'POST', '/users/@me/channels', {
      auth: alice.token,
      body: { recipients: [bob.id] },
    });
    const created = await gateway.waitFor<ApiChannel>('CHANNEL_CREATE', (d) => d.id === dm.body.id);
    assert.equal(created.type, 1);
    assert.equal(created.recipients[0]?.id, bob.id);
  });

  it('sends RELATIONSHIP_ADD to the receiver of a friend request', async () => {
    await call(base, 'PUT', `/users/@me/relationships/${alice.id}`, { auth: bob.token, body: {} });
    const added = await gateway.waitFor<ApiRelationship>('RELATIONSHIP_ADD', (d) => d.id === bob.id);
    assert.equal(added.type, 3);
    assert.equal(added.user.id, bob.id);
  });

  it('sends USER_SETTINGS_UPDATE with the changed fields', async () => {
    await call(base, 'PATCH', '/users/@me/settings', { auth: alice.token, body: { developer_mode: true } });
    const changed = await gateway.waitFor<{ developer_mode?: boolean }>(
      'USER_SETTINGS_UPDATE',
      (d) => d.developer_mode === true,
    );
    assert.equal(changed.developer_mode, true);
  });
});
