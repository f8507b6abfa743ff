import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { ActorMessenger } from '../../../actors/runtime/ActorContext.js';
import { ActorHost, type ActorFactory } from '../../../actors/runtime/ActorHost.js';
import type { UserRecord } from '../../../actors/runtime/ports/records.js';
import type { Stores } from '../../../actors/runtime/ports/stores.js';
import { UserActor } from '../../../actors/user/UserActor.js';
import type { UserCommand, UserReply } from '../../../proto/gen/chorus/v1/user.js';
import { ManualClock } from '../../../src/domain/Clock.js';
import { UnauthorizedError } from '../../../src/domain/errors.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { hashPassword } from '../../../src/domain/passwords.js';
import { SnowflakeGenerator } from '../../../src/domain/snowflake.js';
import { signToken } from '../../../src/domain/tokens.js';
import { InMemoryBlobStore } from '../../../src/store/memory/InMemoryBlobStore.js';
import { InMemoryUserSessionStore } from '../../../src/store/memory/InMemoryUserSessionStore.js';
import { createSqliteStores } from '../../../src/store/sqlite/createSqliteStores.js';
import { aUser } from '../../contract/records.js';

const SECRET = 'unit-secret';
const PASSWORD = 'correct horse battery';
const DEPTH = 5_000;

/** JSON text of `{"a":{"a":...1}}`, `depth` levels deep: what JSON.stringify itself can no longer write. */
function deepJson(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/**
 * The stored JSON of `user` with a custom status and a DM channel override each holding a value nested
 * `DEPTH` levels deep, as accepted before the schemas dropped unknown fields.
 */
function bricked(user: UserRecord): string {
  const shape = {
    ...user,
    settings: { theme: 'light', custom_status: { text: 'away', junk: 'DEEP' } },
    guild_settings: { '@me': { muted: true, channel_overrides: { '20': { muted: true, junk: 'DEEP' } } } },
  };
  return JSON.stringify(shape).replaceAll('"DEEP"', deepJson(DEPTH));
}

function jsonOf(reply: UserReply): Record<string, unknown> {
  assert.equal(reply.reply?.$case, 'json');
  return JSON.parse(reply.reply.json.json) as Record<string, unknown>;
}

describe('UserActor with a stored record nested 5,000 levels deep', () => {
  let dir: string;
  let file: string;
  let stores: Stores;
  let host: ActorHost;
  let userId: string;
  const clock = new ManualClock();
  const ask = (command: UserCommand['command']): Promise<UserReply> => host.ask('user', userId, { command });
  const caller = () => ({ userId, bot: false, rights: '0' });
  const storedRow = (): string => {
    const db = new Database(file, { readonly: true });
    try {
      return (db.prepare('SELECT data FROM users WHERE id = ?').pluck().get(userId) as string | undefined) ?? '';
    } finally {
      db.close();
    }
  };

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-bad-record-'));
    file = join(dir, 'chorus.db');
    stores = createSqliteStores(file);
    const user = aUser({ password_hash: await hashPassword(PASSWORD, 1024) });
    userId = user.id;
    await stores.users.create(user);
    const db = new Database(file);
    db.prepare('UPDATE users SET data = ? WHERE id = ?').run(bricked(user), userId);
    db.close();
    const messenger: ActorMessenger = {
      ask: () => Promise.reject(new Error('not used')),
      tell: () => undefined,
      fanOut: () => undefined,
      pushFrames: () => undefined,
      livesHere: () => true,
    };
    const options = { tokenSecret: SECRET, passwordCost: 1024 };
    const sessions = new InMemoryUserSessionStore();
    host = new ActorHost({
      nodeId: 'node1@1',
      factory: ((_kind, _key, ctx) =>
        new UserActor(ctx, stores, options, sessions, new InMemoryBlobStore())) as ActorFactory,
      messenger,
      clock,
      log: createLogger('silent'),
      ids: new SnowflakeGenerator(1),
      options: { mailboxCapacity: 100, idleTimeoutMs: 60_000 },
    });
  });

  afterEach(async () => {
    await host.shutdown();
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('holds a row that cannot be cloned as stored (the account this repairs)', () => {
    assert.throws(() => structuredClone(JSON.parse(storedRow())), RangeError);
  });

  it('answers GET settings with the custom status repaired', async () => {
    const settings = jsonOf(await ask({ $case: 'getSettings', getSettings: { caller: caller() } }));
    assert.deepEqual(settings['custom_status'], { text: 'away' });
    assert.equal(settings['theme'], 'light');
  });

  it('takes a settings PATCH and stores the repaired record', async () => {
    const body = JSON.stringify({ theme: 'dark' });
    const settings = jsonOf(await ask({ $case: 'updateSettings', updateSettings: { caller: caller(), body } }));
    assert.equal(settings['theme'], 'dark');
    const row = JSON.parse(storedRow()) as UserRecord;
    assert.doesNotThrow(() => structuredClone(row));
    assert.deepEqual(row.settings, { theme: 'dark', custom_status: { text: 'away' } });
    assert.deepEqual(row.guild_settings, { '@me': { muted: true, channel_overrides: { '20': { muted: true } } } });
  });

  it('logs out: the token is revoked', async () => {
    const token = signToken(SECRET, { userId, generation: 0, issuedAtMs: clock.now() });
    await ask({ $case: 'authenticate', authenticate: { token } });
    await ask({ $case: 'logout', logout: { token } });
    await assert.rejects(ask({ $case: 'authenticate', authenticate: { token } }), UnauthorizedError);
  });

  it('deletes the account', async () => {
    const body = JSON.stringify({ password: PASSWORD });
    await ask({ $case: 'deleteAccount', deleteAccount: { caller: caller(), body } });
    const row = JSON.parse(storedRow()) as UserRecord;
    assert.equal(row.deleted, true);
    assert.equal(row.email, null);
  });
});
