import assert from 'node:assert/strict';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { GatewayClient } from './gatewayClient.js';
import { call, type ApiChannel, type ApiUser } from './httpClient.js';

interface RecipientEvent {
  channel_id: string;
  user: ApiUser;
}

describe('group DM recipients', () => {
  let server: TestServer;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  const gateways: GatewayClient[] = [];

  before(async () => {
    server = await startTestServer();
    base = server.api;
    alice = await registerUser(base, 'alice');
    bob = await registerUser(base, 'bob');
    carol = await registerUser(base, 'carol');
    dave = await registerUser(base, 'dave');
  });
  after(async () => {
    for (const gateway of gateways) gateway.close();
    await server.stop();
  });

  const connect = async (user: TestUser): Promise<GatewayClient> => {
    const gateway = await GatewayClient.connect(server.gatewayUrl, user.token);
    gateways.push(gateway);
    return gateway;
  };
  const openGroup = async (owner: TestUser, members: TestUser[]): Promise<string> => {
    const recipients = members.map((user) => user.id);
    const group = await call<ApiChannel>(base, 'POST', '/users/@me/channels', {
      auth: owner.token,
      body: { recipients },
    });
    assert.equal(group.status, 200);
    return group.body.id;
  };
  const recipientPath = (channelId: string, user: TestUser) => `/channels/${channelId}/recipients/${user.id}`;
  const add = (by: TestUser, channelId: string, user: TestUser) =>
    call(base, 'PUT', recipientPath(channelId, user), { auth: by.token, body: { nick: 'ignored' } });
  const remove = (by: TestUser, channelId: string, user: TestUser) =>
    call(base, 'DELETE', recipientPath(channelId, user), { auth: by.token });
  const privateChannelIds = async (user: TestUser): Promise<string[]> =>
    (await call<ApiChannel[]>(base, 'GET', '/users/@me/channels', { auth: user.token })).body.map((c) => c.id);
  const isUserIn = (channelId: string, user: TestUser) => (d: RecipientEvent) =>
    d.channel_id === channelId && d.user.id === user.id;

  it('lets any recipient add a user, who then sees, reads and posts in the group', async () => {
    const [bobGateway, daveGateway] = await Promise.all([connect(bob), connect(dave)]);
    const channelId = await openGroup(alice, [bob, carol]);
    assert.equal((await add(bob, channelId, dave)).status, 204);
    const created = await daveGateway.waitFor<ApiChannel>('CHANNEL_CREATE', (d) => d.id === channelId);
    assert.equal(created.type, 3);
    assert.deepEqual(created.recipients.map((user) => user.id).sort(), [alice.id, bob.id, carol.id].sort());
    const added = await bobGateway.waitFor<RecipientEvent>('CHANNEL_RECIPIENT_ADD', isUserIn(channelId, dave));
    assert.equal(added.user.username, dave.username);
    assert.ok((await privateChannelIds(dave)).includes(channelId));
    const posted = await call(base, 'POST', `/channels/${channelId}/messages`, {
      auth: dave.token,
      body: { content: 'hi all' },
    });
    assert.equal(posted.status, 200);
    const read = await call<unknown[]>(base, 'GET', `/channels/${channelId}/messages`, { auth: dave.token });
    assert.equal(read.status, 200);
    assert.equal(read.body.length, 1);
  });

  it('lets the owner remove a recipient, who loses the channel', async () => {
    const [bobGateway, daveGateway] = await Promise.all([connect(bob), connect(dave)]);
    const channelId = await openGroup(alice, [bob, dave]);
    assert.equal((await remove(alice, channelId, dave)).status, 204);
    await daveGateway.waitFor<ApiChannel>('CHANNEL_DELETE', (d) => d.id === channelId);
    await bobGateway.waitFor<RecipientEvent>('CHANNEL_RECIPIENT_REMOVE', isUserIn(channelId, dave));
    const seen = await call(base, 'GET', `/channels/${channelId}`, { auth: dave.token });
    assert.ok([403, 404].includes(seen.status));
    const posted = await call(base, 'POST', `/channels/${channelId}/messages`, {
      auth: dave.token,
      body: { content: 'still here?' },
    });
    assert.ok([403, 404].includes(posted.status));
    assert.ok(!(await privateChannelIds(dave)).includes(channelId));
    assert.ok((await privateChannelIds(bob)).includes(channelId));
  });

  it('refuses a recipient who is not the owner removing someone else with 50013', async () => {
    const channelId = await openGroup(alice, [bob, carol]);
    const refused = await remove(bob, channelId, carol);
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 50_013);
    assert.ok((await privateChannelIds(carol)).includes(channelId));
  });

  it('lets a recipient leave by removing themselves or deleting the channel', async () => {
    const aliceGateway = await connect(alice);
    const channelId = await openGroup(alice, [bob, carol]);
    assert.equal((await remove(carol, channelId, carol)).status, 204);
    await aliceGateway.waitFor<RecipientEvent>('CHANNEL_RECIPIENT_REMOVE', isUserIn(channelId, carol));
    const left = await call<ApiChannel>(base, 'DELETE', `/channels/${channelId}`, { auth: bob.token });
    assert.equal(left.status, 200);
    assert.equal(left.body.id, channelId);
    await aliceGateway.waitFor<RecipientEvent>('CHANNEL_RECIPIENT_REMOVE', isUserIn(channelId, bob));
    assert.ok(!(await privateChannelIds(bob)).includes(channelId));
    assert.ok(!(await privateChannelIds(carol)).includes(channelId));
    assert.deepEqual(
      (await call<ApiChannel>(base, 'GET', `/channels/${channelId}`, { auth: alice.token })).body.recipients,
      [],
    );
  });

  it('passes ownership on when the owner leaves', async () => {
    const channelId = await openGroup(alice, [bob, carol]);
    assert.equal((await call(base, 'DELETE', `/channels/${channelId}`, { auth: alice.token })).status, 200);
    const seen = await call<ApiChannel>(base, 'GET', `/channels/${channelId}`, { auth: carol.token });
    assert.ok(seen.body.owner_id === bob.id || seen.body.owner_id === carol.id);
    const newOwner = seen.body.owner_id === bob.id ? bob : carol;
    const other = newOwner === bob ? carol : bob;
    assert.equal((await remove(newOwner, channelId, other)).status, 204);
    assert.equal((await call(base, 'GET', `/channels/${channelId}`, { auth: alice.token })).status, 403);
  });

  it('refuses an eleventh user with 30004', async () => {
    const extras = await Promise.all(
      Array.from({ length: 8 }, (_, index) => registerUser(base, `extra${String(index)}`)),
    );
    const channelId = await openGroup(alice, [bob, ...extras.slice(0, 7)]);
    assert.equal((await add(alice, channelId, carol)).status, 204); // the tenth
    const refused = await add(alice, channelId, dave);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 30_004);
    assert.equal((await add(alice, channelId, carol)).status, 204); // already in: nothing to add
  });

  it('refuses adding to a 1:1 DM with 50003', async () => {
    const dm = await call<ApiChannel>(base, 'POST', '/users/@me/channels', {
      auth: alice.token,
      body: { recipients: [bob.id] },
    });
    const refused = await add(alice, dm.body.id, carol);
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 50_003);
    const removal = await remove(alice, dm.body.id, bob);
    assert.equal(removal.body.code, 50_003);
  });
});
