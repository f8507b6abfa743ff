import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { createGuild, joinGuild, type TestGuild } from './gatewayFixtures.js';

interface Row {
  group?: { id: string; count: number };
  member?: { user: { id: string }; nick?: string | null; presence: { status: string } };
}
interface ListOp {
  op: 'SYNC' | 'INSERT' | 'UPDATE' | 'DELETE' | 'INVALIDATE';
  index?: number;
  range?: [number, number];
  item?: Row;
  items?: Row[];
}
interface ListUpdate {
  id: string;
  guild_id: string;
  member_count: number;
  online_count: number;
  groups: { id: string; count: number }[];
  ops: ListOp[];
}

/**
 * A sidebar as Discord's client keeps it: every GUILD_MEMBER_LIST_UPDATE the socket got, applied in order
 * (ops, then the list's length from `groups`).
 */
class Sidebar {
  rows: (Row | undefined)[] = [];
  last: ListUpdate | undefined;
  #next = 0;

  constructor(private readonly client: GatewayClient) {}

  /** Applies the updates that come until `done` holds for the sidebar; resolves with those updates. */
  async until(done: (sidebar: Sidebar) => boolean): Promise<ListUpdate[]> {
    const applied: ListUpdate[] = [];
    while (!done(this)) {
      const frame = await this.client.waitForDispatch<ListUpdate>('GUILD_MEMBER_LIST_UPDATE', () => true, {
        from: this.#next,
      });
      this.#next = this.client.frames.indexOf(frame) + 1;
      this.#apply(frame.d);
      applied.push(frame.d);
    }
    return applied;
  }

  #apply(update: ListUpdate): void {
    for (const op of update.ops) {
      const index = op.index ?? 0;
      if (op.op === 'SYNC')
        (op.items ?? []).forEach((item, offset) => (this.rows[(op.range?.[0] ?? 0) + offset] = item));
      else if (op.op === 'INSERT') this.rows.splice(index, 0, op.item);
      else if (op.op === 'UPDATE') this.rows[index] = op.item;
      else if (op.op === 'DELETE') this.rows.splice(index, 1);
    }
    this.rows.length = update.groups.reduce((sum, group) => sum + group.count + 1, 0);
    this.last = update;
  }

  statusOf(userId: string): string | undefined {
    return this.rows.find((row) => row?.member?.user.id === userId)?.member?.presence.status;
  }

  /** The group whose rows hold `userId`. */
  groupOf(userId: string): string | undefined {
    let group: string | undefined;
    for (const row of this.rows) {
      if (row?.group) group = row.group.id;
      if (row?.member?.user.id === userId) return group;
    }
    return undefined;
  }
}

const opsOf = (updates: readonly ListUpdate[]): string[] => updates.flatMap((update) => update.ops.map((op) => op.op));
const touching = (updates: readonly ListUpdate[], userId: string, op: string): boolean =>
  updates.some((update) => update.ops.some((item) => item.op === op && item.item?.member?.user.id === userId));

describe('gateway member list updates', function () {
  this.timeout(20_000);
  let server: TestServer;
  let owner: TestUser;
  let alice: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let guild: TestGuild;
  const open: GatewayClient[] = [];
  const identified = async (token: string, extra: Record<string, unknown> = {}) => {
    const result = await GatewayClient.identified(server.gatewayUrl, token, extra);
    open.push(result.client);
    return result;
  };

  before(async () => {
    server = await startTestServer();
    owner = await registerUser(server.api, 'owner');
    alice = await registerUser(server.api, 'alice');
    carol = await registerUser(server.api, 'carol');
    dave = await registerUser(server.api, 'dave');
    guild = await createGuild(server.api, owner.token, 'sidebar');
    await joinGuild(server.api, owner.token, guild.channelId, alice.token);
    await joinGuild(server.api, owner.token, guild.channelId, carol.token);
  });
  after(async () => {
    await Promise.all(open.map((client) => client.drop()));
    await server.stop();
  });

  it('moves the sidebar by INSERT, UPDATE and DELETE as members come online, change status or nick, go and leave', async () => {
    const { client } = await identified(owner.token);
    const sidebar = new Sidebar(client);
    const subscribe = (): void => {
      client.send(14, { guild_id: guild.id, channels: { [guild.channelId]: [[0, 99]] } });
    };
    subscribe();
    const [first] = await sidebar.until((view) => view.last !== undefined);
    assert.deepEqual(opsOf([first as ListUpdate]), ['SYNC'], 'the first answer to op 14 is a SYNC');
    assert.equal(sidebar.groupOf(alice.id), 'offline');
    const onlineBefore = sidebar.last?.online_count ?? 0;

    // Alice comes online: her row leaves the offline group and is inserted in the online one.
    const { client: aliceClient } = await identified(alice.token, { presence: { status: 'online', activities: [] } });
    const cameOnline = await sidebar.until((view) => view.groupOf(alice.id) === 'online');
    assert.ok(touching(cameOnline, alice.id, 'INSERT'), `an INSERT of Alice's row, got ${opsOf(cameOnline).join()}`);
    assert.ok(opsOf(cameOnline).includes('DELETE'), 'her offline row is deleted');
    assert.ok(!opsOf(cameOnline).includes('SYNC'));
    assert.equal(sidebar.last?.online_count, onlineBefore + 1);
    assert.equal(sidebar.last?.groups.find((group) => group.id === 'online')?.count, onlineBefore + 1);

    // Alice turns dnd: her row stays where it is, so one UPDATE carries it.
    aliceClient.send(3, { status: 'dnd', since: null, activities: [], afk: false });
    const turnedDnd = await sidebar.until((view) => view.statusOf(alice.id) === 'dnd');
    assert.ok(touching(turnedDnd, alice.id, 'UPDATE'));
    assert.deepEqual([...new Set(opsOf(turnedDnd))], ['UPDATE'], 'a change within the group moves no row');

    // The owner gives Alice a nick: her row changes in place.
    await api(server.api, 'PATCH', `/guilds/${guild.id}/members/${alice.id}`, {
      token: owner.token,
      body: { nick: 'Ally' },
    });
    const renamed = await sidebar.until(
      (view) => view.rows.find((row) => row?.member?.user.id === alice.id)?.member?.nick === 'Ally',
    );
    assert.deepEqual([...new Set(opsOf(renamed))], ['UPDATE']);

    // Alice goes: her online row is deleted and she is inserted among the offline members.
    await aliceClient.close(1000);
    const wentOffline = await sidebar.until((view) => view.groupOf(alice.id) === 'offline');
    assert.ok(opsOf(wentOffline).includes('DELETE'));
    assert.ok(touching(wentOffline, alice.id, 'INSERT'));
    assert.equal(sidebar.last?.online_count, onlineBefore);

    // Dave joins, Carol leaves: an INSERT and a DELETE in the offline group, the member count following.
    const membersBefore = sidebar.last?.member_count ?? 0;
    await joinGuild(server.api, owner.token, guild.channelId, dave.token);
    const joined = await sidebar.until((view) => view.groupOf(dave.id) === 'offline');
    assert.ok(touching(joined, dave.id, 'INSERT'));
    assert.equal(sidebar.last?.member_count, membersBefore + 1);
    await api(server.api, 'DELETE', `/users/@me/guilds/${guild.id}`, { token: carol.token, expect: 204 });
    const left = await sidebar.until((view) => view.groupOf(carol.id) === undefined);
    assert.ok(opsOf(left).includes('DELETE'));
    assert.ok(!opsOf(left).includes('SYNC'));
    assert.equal(sidebar.last?.member_count, membersBefore);

    // What the ops built is what a fresh op 14 SYNC shows.
    const built = sidebar.rows.slice(0, 100);
    subscribe();
    const counts = { groups: sidebar.last?.groups, online: sidebar.last?.online_count };
    const [resync] = await sidebar.until((view) => view.last?.ops.some((op) => op.op === 'SYNC') === true);
    assert.deepEqual({ groups: resync?.groups, online: resync?.online_count }, counts);
    assert.deepEqual(resync?.ops[0]?.items, built);
  });
});
