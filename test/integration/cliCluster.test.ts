import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/loadConfig.js';
import { startNode } from '../../src/main.js';
import { registerUser } from '../support/testServer.js';
import { RedisMembershipTable } from '../../cluster/membership/RedisMembership.js';
import type { MemberInfo } from '../../cluster/membership/Membership.js';
import { HashRing } from '../../cluster/ring/HashRing.js';
import { redisForSuite, REDIS_URL } from './redis/redisTestKit.js';
import { chorus } from './cliRun.js';

const STARTED_MS = Date.now() - 3 * 60_000;

/** A member record as a node publishes it (startClusterNode): gRPC address, URLs, voice endpoint. */
function member(port: number): MemberInfo {
  return {
    nodeId: `127.0.0.1:${port}@${STARTED_MS}`,
    grpcAddress: `127.0.0.1:${port}`,
    httpUrl: `http://127.0.0.1:${port + 1000}`,
    gatewayUrl: `ws://127.0.0.1:${port + 1000}`,
    startedAt: STARTED_MS,
    voiceEndpoint: `127.0.0.1:${port + 2000}`,
  };
}

describe('chorus CLI on a cluster Redis', function () {
  this.timeout(60_000);
  const { prefix, redis } = redisForSuite();
  const env = (): Record<string, string> => ({ CHORUS_REDIS_URL: REDIS_URL, CHORUS_REDIS_PREFIX: prefix });
  const first = member(7101);
  const second = member(7102);

  it('lists no nodes and places nothing before any node joined', async () => {
    const nodes = await chorus(['nodes'], env());
    assert.equal(nodes.code, 0, nodes.stderr);
    assert.match(nodes.stdout, /no live nodes/);
    const where = await chorus(['where', 'guild:1'], env());
    assert.equal(where.code, 1);
    assert.match(where.stderr, /ring is empty/);
  });

  it('lists the members nodes heartbeat, with addresses, voice endpoint and age', async () => {
    const table = new RedisMembershipTable(redis(), prefix);
    await table.heartbeat(first, 60_000);
    await table.heartbeat(second, 60_000);
    await table.reconcile(0);
    const nodes = await chorus(['nodes'], env());
    assert.equal(nodes.code, 0, nodes.stderr);
    assert.match(nodes.stdout, /2 node\(s\)/);
    for (const node of [first, second]) {
      const line = nodes.stdout.split('\n').find((text) => text.startsWith(node.nodeId));
      assert.ok(line, `${node.nodeId} listed`);
      assert.match(line, new RegExp(`grpc ${node.grpcAddress} +http ${node.httpUrl} +voice ${node.voiceEndpoint}`));
      assert.match(line, /age 3m\d+s/);
    }
  });

  it("shows each node's ring share and where sample keys land, as the nodes' own ring does", async () => {
    const ring = await chorus(['ring', '--keys', '1000'], env());
    assert.equal(ring.code, 0, ring.stderr);
    const expected = new HashRing({ version: 1, members: [first.nodeId, second.nodeId] }, 128);
    let total = 0;
    let keys = 0;
    for (const [node, share] of expected.shares()) {
      const line = ring.stdout.split('\n').find((text) => text.startsWith(node));
      assert.ok(line, `${node} in the ring`);
      const [, percent, owned] = /(\d+\.\d+)% +(\d+) of 1000 keys/.exec(line) ?? [];
      assert.equal(percent, (share * 100).toFixed(2));
      total += Number(percent);
      keys += Number(owned);
    }
    assert.ok(Math.abs(total - 100) < 0.02, `shares sum to 100%, got ${total}`);
    assert.equal(keys, 1000);
    const bad = await chorus(['ring', '--keys', 'many'], env());
    assert.equal(bad.code, 2);
  });

  it('shows where a key lives, pins it to the other node, then unpins it', async () => {
    const ring = new HashRing({ version: 1, members: [first.nodeId, second.nodeId] }, 128);
    const owner = ring.ownerOf('guild:42');
    const other = owner === first.nodeId ? second : first;
    const before = await chorus(['where', 'guild:42'], env());
    assert.equal(before.code, 0, before.stderr);
    assert.match(before.stdout, new RegExp(`^guild:42 -> ${owner} \\(ring v\\d+\\)`));
    const pinned = await chorus(['pin', 'guild:42', other.grpcAddress], env());
    assert.equal(pinned.code, 0, pinned.stderr);
    assert.match(pinned.stdout, /pinned guild:42 to .*: pins v\d+/);
    const moved = await chorus(['where', 'guild:42'], env());
    assert.match(moved.stdout, new RegExp(`^guild:42 -> ${other.nodeId} \\(pinned to ${other.grpcAddress}`));
    const pins = await chorus(['pins'], env());
    assert.match(pins.stdout, new RegExp(`guild:42 -> ${other.grpcAddress}`));
    const unpinned = await chorus(['unpin', 'guild:42'], env());
    assert.equal(unpinned.code, 0, unpinned.stderr);
    const back = await chorus(['where', 'guild:42'], env());
    assert.match(back.stdout, new RegExp(`^guild:42 -> ${owner} \\(ring`));
  });

  it('says a pin to a node that is not live does not place the key', async () => {
    await chorus(['pin', 'guild:43', '10.9.9.9:7999'], env());
    const where = await chorus(['where', 'guild:43'], env());
    assert.match(where.stdout, /pinned to 10\.9\.9\.9:7999, which is not live, so the ring places it/);
  });

  it("drains a node through its POST /stop with an operator's token read from a file", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chorus-cli-drain-'));
    let stopAsked!: () => void;
    const stopped = new Promise<void>((resolve) => {
      stopAsked = resolve;
    });
    const config = loadConfig(
      {},
      {
        PORT: '0',
        CHORUS_HOST: '127.0.0.1',
        CHORUS_DATA_DIR: dir,
        CHORUS_LOG_LEVEL: 'silent',
        CHORUS_PASSWORD_COST: '1024',
        CHORUS_OPERATOR_EMAILS: 'ops@drain.example',
      },
    );
    const node = await startNode(config, undefined, () => {
      stopAsked();
    });
    try {
      const base = `${node.url}/api/v10`;
      const operator = await fetch(`${base}/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          username: 'ops',
          password: 'correct horse battery',
          email: 'ops@drain.example',
          consent: true,
        }),
      }).then(async (response) => ((await response.json()) as { token: string }).token);
      const someone = await registerUser(base, 'notops');
      // The node's record as a cluster node publishes it; its HTTP URL is where drain asks.
      const record = { ...member(7103), httpUrl: node.url };
      const table = new RedisMembershipTable(redis(), prefix);
      await table.heartbeat(record, 60_000);
      await table.reconcile((await table.read()).version);
      const tokenFile = join(dir, 'token');
      writeFileSync(tokenFile, `${someone.token}\n`, { mode: 0o600 });
      const refused = await chorus(['drain', record.grpcAddress, '--token-file', tokenFile], env());
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /refused to stop: 403/);
      writeFileSync(tokenFile, `${operator}\n`);
      const drained = await chorus(['drain', record.nodeId, '--token-file', tokenFile], env());
      assert.equal(drained.code, 0, drained.stderr);
      assert.match(drained.stdout, /is draining/);
      await stopped;
      const usage = await chorus(['drain', record.nodeId], env());
      assert.equal(usage.code, 2);
      const unknown = await chorus(['drain', '10.0.0.9:1', '--token-file', tokenFile], env());
      assert.match(unknown.stderr, /no live node 10\.0\.0\.9:1/);
    } finally {
      await node.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a malformed key or node with the field error and exit status 2', async () => {
    const badNode = await chorus(['pin', 'guild:1', 'nowhere'], env());
    assert.equal(badNode.code, 2);
    assert.match(badNode.stderr, /PIN_NODE_INVALID/);
    const badKey = await chorus(['where', 'planet:1'], env());
    assert.equal(badKey.code, 2);
    assert.match(badKey.stderr, /kind one of guild/);
  });
});
