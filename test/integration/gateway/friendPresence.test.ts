import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, registerUser, startTestServer, type TestServer } from '../../support/testServer.js';

interface Presence {
  user: { id: string };
  guild_id?: string;
  status: string;
}

describe('gateway presence among friends', function () {
  this.timeout(20_000);
  let server: TestServer;
  const open: GatewayClient[] = [];
  const identified = async (token: string, extra: Record<string, unknown> = {}) => {
    const result = await GatewayClient.identified(server.gatewayUrl, token, extra);
    open.push(result.client);
    return result;
  };
  const ofUser = (userId: string, status: string) => (d: Presence) => d.user.id === userId && d.status === status;

  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await Promise.all(open.map((client) => client.drop()));
    await server.stop();
  });

  it('tells friends with no guild in common (guild-less PRESENCE_UPDATE) and the user own sessions SESSIONS_REPLACE', async () => {
    const dave = await registerUser(server.api, 'dave');
    const erin = await registerUser(server.api, 'erin');
    await api(server.api, 'PUT', `/users/@me/relationships/${erin.id}`, { token: dave.token, body: {} });
    await api(server.api, 'PUT', `/users/@me/relationships/${dave.id}`, { token: erin.token, body: {} });
    const { client: erinClient } = await identified(erin.token);
    const { client: daveClient } = await identified(dave.token, { presence: { status: 'dnd', activities: [] } });
    const seen = await erinClient.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(dave.id, 'dnd'));
    assert.equal(seen.d.guild_id, undefined);
    const own = await daveClient.waitForDispatch<{ session_id: string; status: string }[]>('SESSIONS_REPLACE');
    assert.deepEqual(
      own.d.map((session) => session.status),
      ['dnd'],
    );
    assert.equal(daveClient.dispatches('PRESENCE_UPDATE').length, 0);
    // A later session of a friend finds Dave in READY presences (friends are not in guilds' lists).
    const { ready: erinReady } = await identified(erin.token);
    const listed = (erinReady['presences'] as Presence[]).map((presence) => [presence.user.id, presence.status]);
    assert.deepEqual(listed, [[dave.id, 'dnd']]);
    // DEDUPE_USER_OBJECTS: merged_presences.friends, keyed by user_id.
    const { ready: dedupedReady } = await identified(erin.token, { capabilities: 1 << 4 });
    const merged = dedupedReady['merged_presences'] as { friends: { user_id: string; status: string }[] };
    assert.deepEqual(
      merged.friends.map((presence) => [presence.user_id, presence.status]),
      [[dave.id, 'dnd']],
    );

    const { client: second } = await identified(dave.token, { presence: { status: 'idle', activities: [] } });
    const both = await second.waitForDispatch<{ session_id: string; status: string }[]>(
      'SESSIONS_REPLACE',
      (d) => d.length === 3,
    );
    assert.deepEqual(
      both.d.map((session) => session.status),
      ['dnd', 'dnd', 'idle'],
      'the synthetic "all" session first, then each session',
    );
    assert.equal(both.d[0]?.session_id, 'all');
    await daveClient.close(1000);
    await second.close(1000);
    await erinClient.waitForDispatch<Presence>('PRESENCE_UPDATE', ofUser(dave.id, 'offline'));
  });
});
