import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { describe, it } from 'mocha';
import type { ClusterNode } from '../../support/clusterHarness.js';
import { clusterPerSuite } from '../../support/clusterPerSuite.js';
import { GatewayClient, type GatewayFrame } from '../../support/GatewayClient.js';
import { registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, joinGuild, type TestGuild } from '../../integration/gateway/gatewayFixtures.js';

/** Short, so the test sees the window run out; every node gets it. */
const RESUME_WINDOW_MS = 5_000;
/** Offline may not come sooner than the window minus this after the kill (clocks and event-loop turns). */
const EARLY_MARGIN_MS = 500;
const ATTEMPTS = 30;

interface Presence {
  user: { id: string };
  guild_id: string;
  status: string;
}

/** A session identified on the victim: its client and whether its Session actor lives there too. */
interface Held {
  readonly client: GatewayClient;
  readonly sessionId: string;
  readonly actorOnVictim: boolean;
}

/**
 * In cluster mode a node's death must not take its users offline at once (they may resume on another
 * node within the resume window) nor never (nothing else wakes a quiet user's sessions): offline comes
 * once the window has run out, and a user who resumes one of several sessions stays online when the
 * others end. The victim holds the sockets and the User actors of both users, and some of the sessions'
 * actors; the guild's actor and the watcher live on the survivors.
 */
describe('cluster: a node’s death takes its users offline after the resume window', function () {
  this.timeout(120_000);
  const open: GatewayClient[] = [];
  const cluster = clusterPerSuite(
    { nodes: 3, env: { CHORUS_RESUME_WINDOW_MS: String(RESUME_WINDOW_MS) } },
    {
      logLines: 30,
      tearDown: () => Promise.all(open.map((client) => client.drop())),
    },
  );

  /** Identifies `user` on `node`; its session id and where its Session actor lives. */
  async function identify(node: ClusterNode, user: TestUser, victim: ClusterNode): Promise<Held> {
    const { client, ready } = await GatewayClient.identified(node.gatewayUrl, user.token);
    open.push(client);
    const sessionId = String(ready['session_id']);
    const host = await cluster.ownerOf(`session:${sessionId}`, node);
    return { client, sessionId, actorOnVictim: host === victim };
  }

  /** Registers users until one's User actor lives on `victim`. */
  async function userOn(victim: ClusterNode, api: string, name: string): Promise<TestUser> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
      const user = await registerUser(api, name);
      if ((await cluster.ownerOf(`user:${user.id}`)) === victim) return user;
    }
    throw new Error(`${ATTEMPTS} registrations placed no User actor on ${victim.name}`);
  }

  /** Resumes `sessionId` on `node` (again after op 7 or a close: the session may still be moving). */
  async function resume(node: ClusterNode, user: TestUser, sessionId: string, seq: number): Promise<GatewayClient> {
    const answers: string[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const client = await GatewayClient.connect(node.gatewayUrl);
      open.push(client);
      await client.waitFor('op 10 Hello', (frame) => frame.op === 10);
      client.send(6, { token: user.token, session_id: sessionId, seq });
      const answer = await client
        .waitFor('RESUMED, op 7 or op 9', (frame) => frame.t === 'RESUMED' || frame.op === 7 || frame.op === 9, {
          timeoutMs: 10_000,
        })
        .catch((error: unknown) => ({ op: -1, t: String(error) }) as GatewayFrame);
      if (answer.t === 'RESUMED') return client;
      assert.notEqual(answer.op, 9, `the resume of ${sessionId} is refused with op 9: the session ended`);
      answers.push(`op ${answer.op} ${answer.t ?? ''}`);
      await client.close(4000);
    }
    throw new Error(`session ${sessionId} did not resume on ${node.name}: ${answers.join('; ')}`);
  }

  it('keeps a user who resumes on a survivor online, and shows one who never comes back offline once the window has run out', async () => {
    const nodes = cluster.live();
    const watcher = await registerUser(nodes[0]!.api, 'watcher');
    const guild: TestGuild = await createGuild(nodes[0]!.api, watcher.token, 'node death');
    const guildNode = await cluster.ownerOf(`guild:${guild.id}`);
    const victim = nodes.find((node) => node !== guildNode)!;
    const [near, far] = nodes.filter((node) => node !== victim) as [ClusterNode, ClusterNode];

    const returning = await userOn(victim, near.api, 'returning');
    const gone = await userOn(victim, near.api, 'gone');
    await joinGuild(near.api, watcher.token, guild.channelId, returning.token);
    await joinGuild(near.api, watcher.token, guild.channelId, gone.token);

    // The watcher's own Session actor must outlive the kill (one re-activated elsewhere asks its client to resume).
    let watching: GatewayClient | undefined;
    for (let attempt = 0; attempt < ATTEMPTS && !watching; attempt += 1) {
      const held = await identify(near, watcher, victim);
      if (held.actorOnVictim) await held.client.close(1000);
      else watching = held.client;
    }
    assert.ok(watching, `no watcher session whose actor lives off ${victim.name}`);
    const of = (user: TestUser, status: string) => (d: Presence) => d.user.id === user.id && d.status === status;

    // The user who never comes back: sessions on the victim, one whose actor dies with it and one whose lives on.
    const goneSessions: Held[] = [];
    const hasBoth = (): boolean =>
      goneSessions.some((held) => held.actorOnVictim) && goneSessions.some((held) => !held.actorOnVictim);
    for (let attempt = 0; attempt < ATTEMPTS && !hasBoth(); attempt += 1) {
      goneSessions.push(await identify(victim, gone, victim));
    }
    assert.ok(hasBoth(), `no sessions of ${gone.id} with actors both on and off ${victim.name}`);
    // The user who comes back: the session that resumes, and one more (its actor on the victim) that never does.
    const back = await identify(victim, returning, victim);
    let orphan: Held | undefined;
    for (let attempt = 0; attempt < ATTEMPTS && !orphan; attempt += 1) {
      const held = await identify(victim, returning, victim);
      if (held.actorOnVictim) orphan = held;
      else await held.client.close(1000);
    }
    assert.ok(orphan, `no second session of ${returning.id} whose actor lives on ${victim.name}`);
    await watching.waitForDispatch<Presence>('PRESENCE_UPDATE', of(gone, 'online'), { timeoutMs: 15_000 });
    await watching.waitForDispatch<Presence>('PRESENCE_UPDATE', of(returning, 'online'), { timeoutMs: 15_000 });
    const seq = back.client.lastSeq ?? 0;

    const mark = watching.frames.length;
    const killedAt = performance.now();
    victim.kill('SIGKILL');
    const goneOffline = watching
      .waitForDispatch<Presence>('PRESENCE_UPDATE', of(gone, 'offline'), { from: mark, timeoutMs: 45_000 })
      .then((frame) => ({ frame, afterMs: performance.now() - killedAt }));
    await victim.exited();
    await cluster.waitForMembers([near, far]);
    const resumed = await resume(far, returning, back.sessionId, seq);

    const { frame, afterMs } = await goneOffline;
    assert.equal(frame.d.guild_id, guild.id);
    assert.ok(
      afterMs >= RESUME_WINDOW_MS - EARLY_MARGIN_MS,
      `${gone.id} went offline ${Math.round(afterMs)} ms after the kill, before the ${RESUME_WINDOW_MS} ms window ran out`,
    );

    // Still tracked after the kill (its User actor died with the victim): a change reaches the watcher.
    resumed.send(3, { status: 'dnd', since: null, afk: false, activities: [] });
    await watching.waitForDispatch<Presence>('PRESENCE_UPDATE', of(returning, 'dnd'), {
      from: mark,
      timeoutMs: 15_000,
    });
    // Its other session has ended once its own sessions list the resumed one alone (SESSIONS_REPLACE).
    await resumed.waitForDispatch<{ session_id: string; status: string }[]>(
      'SESSIONS_REPLACE',
      (d) => d.length === 1 && d[0]?.session_id === back.sessionId && d[0].status === 'dnd',
      { timeoutMs: 30_000 },
    );
    // The User actor tells the guild in order, so an offline it told before this reaches the watcher first.
    const settled = watching.frames.length;
    resumed.send(3, { status: 'online', since: null, afk: false, activities: [] });
    await watching.waitForDispatch<Presence>('PRESENCE_UPDATE', of(returning, 'online'), {
      from: settled,
      timeoutMs: 15_000,
    });
    assert.deepEqual(
      watching.frames
        .slice(mark)
        .filter((update) => update.t === 'PRESENCE_UPDATE' && of(returning, 'offline')(update.d as Presence)),
      [],
      'the user who resumed within the window is never shown offline, not even when its other session ends',
    );
  });
});
