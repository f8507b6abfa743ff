import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ActorMessenger } from '../../../actors/runtime/ActorContext.js';
import { ActorHost, type ActorFactory } from '../../../actors/runtime/ActorHost.js';
import type { Stores } from '../../../actors/runtime/ports/stores.js';
import type { UserSessionStore } from '../../../actors/runtime/ports/userSessionStore.js';
import { UserActor } from '../../../actors/user/UserActor.js';
import type { DispatchEvent } from '../../../proto/gen/chorus/v1/common.js';
import type { UserCommand } from '../../../proto/gen/chorus/v1/user.js';
import { ManualClock } from '../../../src/domain/Clock.js';
import { ServiceUnavailableError } from '../../../src/domain/errors.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { SnowflakeGenerator } from '../../../src/domain/snowflake.js';
import { InMemoryUserSessionStore } from '../../../src/store/memory/InMemoryUserSessionStore.js';
import { createSqliteStores } from '../../../src/store/sqlite/createSqliteStores.js';
import { aUser } from '../../contract/records.js';
import { InMemoryBlobStore } from '../../../src/store/memory/InMemoryBlobStore.js';
import { GatewayIntent } from '../../../src/domain/intents.js';

const IDLE_MS = 1_000;
const { GUILD_MESSAGES } = GatewayIntent;

interface FannedOut {
  readonly sessionIds: readonly string[];
  readonly event: string;
  readonly source: string;
}

/** One node: an ActorHost running User actors on the shared stores, recording what they send out. */
class Node {
  readonly clock = new ManualClock();
  readonly fannedOut: FannedOut[] = [];
  readonly told: { kind: string; key: string; command: unknown }[] = [];
  readonly host: ActorHost;

  constructor(stores: Stores, sessions: UserSessionStore, name: string) {
    const messenger: ActorMessenger = {
      ask: () => Promise.reject(new Error('not used')),
      tell: (kind, key, command) => {
        this.told.push({ kind, key, command });
      },
      fanOut: (sessionIds, event, source = '') => {
        this.fannedOut.push({ sessionIds: [...sessionIds], event: event.event, source });
      },
      pushFrames: () => undefined,
      livesHere: () => true,
    };
    const options = { tokenSecret: 'unit-secret', passwordCost: 1024 };
    this.host = new ActorHost({
      nodeId: name,
      factory: ((_kind, _key, ctx) =>
        new UserActor(ctx, stores, options, sessions, new InMemoryBlobStore())) as ActorFactory,
      messenger,
      clock: this.clock,
      log: createLogger('silent'),
      ids: new SnowflakeGenerator(1),
      options: { mailboxCapacity: 100, idleTimeoutMs: IDLE_MS },
    });
  }

  async send(userId: string, command: UserCommand['command']): Promise<void> {
    await this.host.ask('user', userId, { command });
  }
}

const attach = (sessionId: string, shardId = 0, intents = '0'): UserCommand['command'] => ({
  $case: 'attachSession',
  attachSession: { sessionId, shardId, intents },
});
// What the actor system tells when a fan-out found the session gone (shard and intents unknown there).
const detach = (sessionId: string): UserCommand['command'] => ({
  $case: 'detachSession',
  detachSession: { sessionId, shardId: 0, intents: '0' },
});
const dispatch = (event: string, intent = 0): UserCommand['command'] => {
  const dispatched: DispatchEvent = { event, dataJson: '{}', intent };
  return { $case: 'dispatch', dispatch: { event: dispatched } };
};

describe('UserActor sessions', () => {
  let dir: string;
  let stores: Stores;
  let sessions: InMemoryUserSessionStore;
  let userId: string;
  const nodes: Node[] = [];
  const node = (): Node => {
    const created = new Node(stores, sessions, `node${nodes.length + 1}@1`);
    nodes.push(created);
    return created;
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-user-sessions-'));
    stores = createSqliteStores(join(dir, 'chorus.db'));
    sessions = new InMemoryUserSessionStore();
    const user = aUser();
    userId = user.id;
    await stores.users.create(user);
  });

  afterEach(async () => {
    await Promise.all(nodes.splice(0).map((each) => each.host.shutdown()));
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('passivates while its user has sessions, and the next activation delivers to them', async () => {
    const one = node();
    await one.send(userId, attach('s1'));
    await one.send(userId, attach('s2', 1));
    await one.send(userId, attach('s3', 0, String(GUILD_MESSAGES)));
    one.clock.advance(IDLE_MS + 1);
    assert.equal(one.host.passivateIdle(), 1, 'the User actor stops although 3 sessions are attached');
    assert.equal(one.host.isActive('user', userId), false);

    await one.send(userId, dispatch('CHANNEL_CREATE'));
    await one.send(userId, dispatch('MESSAGE_CREATE', GUILD_MESSAGES));
    assert.deepEqual(one.fannedOut, [
      { sessionIds: ['s1', 's3'], event: 'CHANNEL_CREATE', source: `user:${userId}` },
      { sessionIds: ['s3'], event: 'MESSAGE_CREATE', source: `user:${userId}` },
    ]);
  });

  it('re-activated on another node, delivers to the sessions attached on the first', async () => {
    const [dead, survivor] = [node(), node()];
    await dead.send(userId, attach('s1'));
    await dead.send(userId, attach('s2', 0, String(GUILD_MESSAGES)));
    // The first node is gone without a word; the next event for the user activates it elsewhere.
    await survivor.send(userId, dispatch('USER_UPDATE'));
    assert.deepEqual(survivor.fannedOut.at(-1)?.sessionIds, ['s1', 's2']);
    await survivor.send(userId, { $case: 'joinedGuild', joinedGuild: { guildId: '99' } });
    assert.deepEqual(
      survivor.told.filter((told) => told.kind === 'session').map((told) => told.key),
      ['s1', 's2'],
      'guild joins reach every session',
    );
  });

  it('forgets a session reported gone, for the next activation too', async () => {
    const [first, second] = [node(), node()];
    await first.send(userId, attach('s1'));
    await first.send(userId, attach('s2'));
    await first.send(userId, detach('s1'));
    await first.send(userId, detach('s1')); // a second report of the same gone session
    await first.send(userId, dispatch('USER_UPDATE'));
    assert.deepEqual(first.fannedOut.at(-1)?.sessionIds, ['s2']);
    assert.deepEqual(await sessions.list(userId), [{ sessionId: 's2', shardId: 0, intents: '0' }]);
    await second.send(userId, dispatch('USER_UPDATE'));
    assert.deepEqual(second.fannedOut.at(-1)?.sessionIds, ['s2']);
  });

  it('refuses an attach its store cannot take, and does not deliver to that session', async () => {
    sessions.add = () => Promise.reject(new ServiceUnavailableError('store down'));
    const one = node();
    await assert.rejects(one.send(userId, attach('s1')), ServiceUnavailableError);
    await one.send(userId, dispatch('USER_UPDATE'));
    assert.deepEqual(one.fannedOut, []);
  });
});
