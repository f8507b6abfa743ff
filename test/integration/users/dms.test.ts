import assert from 'node:assert/strict';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { call, type ApiChannel } from './httpClient.js';

describe('DM channels over HTTP', () => {
  let server: TestServer;
  let base: string;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;

  before(async () => {
    server = await startTestServer();
    base = server.api;
    alice = await registerUser(base, 'alice');
    bob = await registerUser(base, 'bob');
    carol = await registerUser(base, 'carol');
  });
  after(async () => server.stop());

  const open = (from: TestUser, recipients: string[], name?: string) =>
    call<ApiChannel>(base, 'POST', '/users/@me/channels', {
      auth: from.token,
      body: name === undefined ? { recipients } : { recipients, name },
    });
  const recipientIds = (channel: ApiChannel | undefined): string[] =>
    (channel?.recipients ?? []).map((user) => user.id).sort();

  it('opens one 1:1 DM per pair, whichever side opens it', async () => {
    const first = await open(alice, [bob.id]);
    assert.equal(first.status, 200);
    assert.equal(first.body.type, 1);
    assert.deepEqual(recipientIds(first.body), [bob.id]);
    assert.equal((await open(alice, [bob.id])).body.id, first.body.id);
    const fromBob = await open(bob, [alice.id]);
    assert.equal(fromBob.body.id, first.body.id);
    assert.deepEqual(recipientIds(fromBob.body), [alice.id]);
  });

  it('gives two users opening a DM at the same time the same channel', async () => {
    const [one, two] = await Promise.all([open(carol, [bob.id]), open(bob, [carol.id])]);
    assert.equal(one.status, 200);
    assert.equal(one.body.id, two.body.id);
  });

  it('lists the caller’s DMs with the other users as recipients', async () => {
    const list = await call<ApiChannel[]>(base, 'GET', '/users/@me/channels', { auth: alice.token });
    assert.equal(list.status, 200);
    assert.equal(list.body.length, 1);
    assert.deepEqual(recipientIds(list.body[0]), [bob.id]);
    assert.equal(list.body[0]?.recipients[0]?.email, undefined);
  });

  it('creates a group DM owned by the caller', async () => {
    const group = await open(alice, [bob.id, carol.id], 'trio');
    assert.equal(group.status, 200);
    assert.equal(group.body.type, 3);
    assert.equal(group.body.owner_id, alice.id);
    assert.equal(group.body.name, 'trio');
    const carols = await call<ApiChannel[]>(base, 'GET', '/users/@me/channels', { auth: carol.token });
    const seen = carols.body.find((channel) => channel.id === group.body.id);
    assert.deepEqual(recipientIds(seen), [alice.id, bob.id].sort());
  });

  it('refuses unknown recipients with 50033 and malformed ids with 50035', async () => {
    const unknown = await call(base, 'POST', '/users/@me/channels', {
      auth: alice.token,
      body: { recipients: ['123456789012345678'] },
    });
    assert.equal(unknown.status, 400);
    assert.equal(unknown.body.code, 50_033);
    const self = await call(base, 'POST', '/users/@me/channels', {
      auth: alice.token,
      body: { recipients: [alice.id] },
    });
    assert.equal(self.body.code, 50_033);
    const malformed = await call(base, 'POST', '/users/@me/channels', {
      auth: alice.token,
      body: { recipients: ['x'] },
    });
    assert.equal(malformed.status, 400);
    assert.equal(malformed.body.code, 50_035);
    const missing = await call(base, 'POST', '/users/@me/channels', { auth: alice.token, body: {} });
    assert.equal(missing.body.code, 50_035);
  });
});
