import assert from 'node:assert/strict';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { GatewayClient } from './gatewayClient.js';
import { call, waitFor, type ApiChannel, type ApiRelationship, type ApiUser } from './httpClient.js';

/** A MESSAGE_CREATE (or message reply) as far as these tests read it. */
interface ApiMessage {
  id: string;
  channel_id: string;
  content: string;
  author: { id: string };
}

describe('blocking, as Discord applies it', () => {
  let server: TestServer;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let aliceGateway: GatewayClient;

  before(async () => {
    server = await startTestServer();
    base = server.api;
    alice = await registerUser(base, 'alice');
    bob = await registerUser(base, 'bob');
    carol = await registerUser(base, 'carol');
    aliceGateway = await GatewayClient.connect(server.gatewayUrl, alice.token);
  });
  after(async () => {
    aliceGateway.close();
    await server.stop();
  });

  const relationshipsOf = async (user: TestUser): Promise<ApiRelationship[]> =>
    (await call<ApiRelationship[]>(base, 'GET', '/users/@me/relationships', { auth: user.token })).body;
  const typesOf = async (user: TestUser): Promise<[string, number][]> =>
    (await relationshipsOf(user)).map((item) => [item.id, item.type]);
  const openDm = async (from: TestUser, to: TestUser): Promise<ApiChannel> => {
    const opened = await call<ApiChannel>(base, 'POST', '/users/@me/channels', {
      auth: from.token,
      body: { recipients: [to.id] },
    });
    assert.equal(opened.status, 200);
    return opened.body;
  };
  const send = (from: TestUser, channelId: string, content: string) =>
    call<ApiMessage & { code?: number; message?: string }>(base, 'POST', `/channels/${channelId}/messages`, {
      auth: from.token,
      body: { content },
    });
  const setRelationship = (from: TestUser, to: TestUser, body: Record<string, unknown>) =>
    call(base, 'PUT', `/users/@me/relationships/${to.id}`, { auth: from.token, body });
  const befriend = async (a: TestUser, b: TestUser): Promise<void> => {
    assert.equal((await setRelationship(a, b, {})).status, 204);
    await waitFor(async () => ((await typesOf(b)).some(([id, type]) => id === a.id && type === 3) ? true : undefined));
    assert.equal((await setRelationship(b, a, {})).status, 204);
    await waitFor(async () => ((await typesOf(a)).some(([id, type]) => id === b.id && type === 1) ? true : undefined));
  };
  /** Proves nothing earlier reached Alice's gateway: Carol's DM arrives, and the events before it are checked. */
  const aliceHeardNothingFrom = async (channelId: string): Promise<void> => {
    const carolDm = await openDm(carol, alice);
    const marker = `marker ${Date.now()}`;
    assert.equal((await send(carol, carolDm.id, marker)).status, 200);
    await aliceGateway.waitFor<ApiMessage>('MESSAGE_CREATE', (d) => d.content === marker);
    const leaked = aliceGateway.dispatches.filter(
      (frame) =>
        (frame.d as { channel_id?: string; id?: string }).channel_id === channelId ||
        (frame.t === 'CHANNEL_CREATE' && (frame.d as { id?: string }).id === channelId),
    );
    assert.deepEqual(leaked, []);
  };

  it('shows the block as type 2 to the blocker only and ends the friendship', async () => {
    await befriend(bob, alice);
    assert.equal((await setRelationship(alice, bob, { type: 2 })).status, 204);
    assert.deepEqual(await typesOf(alice), [[bob.id, 2]]);
    await waitFor(async () => ((await relationshipsOf(bob)).length === 0 ? true : undefined));
    const [item] = await relationshipsOf(alice);
    assert.deepEqual(Object.keys(item ?? {}).sort(), ['id', 'nickname', 'type', 'user']);
    assert.equal(item?.nickname, null);
    assert.equal(item?.user.id, bob.id);
  });

  it('lets the blocked user open the DM but refuses every message both ways with 50007', async () => {
    const dm = await openDm(bob, alice);
    const fromBlocked = await send(bob, dm.id, 'hello?');
    assert.equal(fromBlocked.status, 403);
    assert.deepEqual([fromBlocked.body.code, fromBlocked.body.message], [50_007, 'Cannot send messages to this user']);
    const fromBlocker = await send(alice, dm.id, 'go away');
    assert.equal(fromBlocker.status, 403);
    assert.equal(fromBlocker.body.code, 50_007);

    const stored = await call<ApiMessage[]>(base, 'GET', `/channels/${dm.id}/messages`, { auth: alice.token });
    assert.deepEqual([stored.status, stored.body], [200, []]);
    await aliceHeardNothingFrom(dm.id);
  });

  it('refuses friend requests from the blocked user with 80000 and stores nothing', async () => {
    const plain = await setRelationship(bob, alice, {});
    const typed = await setRelationship(bob, alice, { type: 1 });
    const aliceSelf = (await call<ApiUser>(base, 'GET', '/users/@me', { auth: alice.token })).body;
    const byTag = await call(base, 'POST', '/users/@me/relationships', {
      auth: bob.token,
      body: { username: aliceSelf.username, discriminator: aliceSelf.discriminator },
    });
    for (const refused of [plain, typed, byTag]) assert.deepEqual([refused.status, refused.body.code], [400, 80_000]);
    assert.deepEqual(await typesOf(alice), [[bob.id, 2]]);
    assert.deepEqual(await typesOf(bob), []);
  });

  it('restores sending on unblock, and a new block applies to the DM at once', async () => {
    const dm = await openDm(alice, bob);
    assert.equal((await call(base, 'DELETE', `/users/@me/relationships/${bob.id}`, { auth: alice.token })).status, 204);
    assert.deepEqual(await typesOf(alice), []);

    const delivered = await send(bob, dm.id, 'friends again?');
    assert.equal(delivered.status, 200);
    await aliceGateway.waitFor<ApiMessage>('MESSAGE_CREATE', (d) => d.id === delivered.body.id);
    assert.equal((await send(alice, dm.id, 'maybe')).status, 200);

    // The channel is active and has read "no block": the block must reach it before the reply.
    assert.equal((await setRelationship(alice, bob, { type: 2 })).status, 204);
    const refused = await send(bob, dm.id, 'still there?');
    assert.deepEqual([refused.status, refused.body.code], [403, 50_007]);
    assert.equal((await call(base, 'DELETE', `/users/@me/relationships/${bob.id}`, { auth: alice.token })).status, 204);
    assert.equal((await send(bob, dm.id, 'back')).status, 200);
  });

  it('lists mutual friends as UserRelationsResponse items', async () => {
    const dave = await registerUser(base, 'dave');
    await befriend(carol, dave);
    await befriend(alice, dave);
    const mutual = await call<ApiRelationship[]>(base, 'GET', `/users/${carol.id}/relationships`, {
      auth: alice.token,
    });
    assert.equal(mutual.status, 200);
    assert.equal(mutual.body.length, 1);
    const [item] = mutual.body;
    assert.deepEqual([item?.id, item?.type, item?.nickname, item?.user.id], [dave.id, 1, null, dave.id]);
    assert.deepEqual(Object.keys(item ?? {}).sort(), ['id', 'nickname', 'type', 'user']);
    assert.equal(item?.user.email, undefined);
  });
});
