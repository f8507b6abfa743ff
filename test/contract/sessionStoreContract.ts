import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { BufferedFrame, SessionRecord, SessionStore } from '../../actors/runtime/ports/sessionStore.js';
import { WrongOwnerError } from '../../src/domain/errors.js';

/** A session store under test, and a way to let time pass for its expiry. */
export interface SessionStoreFixture {
  readonly store: SessionStore;
  /** Lets `ms` pass as far as expiry goes (a manual clock; in Redis, every key's PTTL shortened). */
  elapse(ms: number): Promise<void>;
}

const TTL = 60_000;

/** A session record as Identify leaves it; `extra` overrides fields. */
export function aSessionRecord(extra: Partial<SessionRecord> = {}): SessionRecord {
  return {
    userId: '100',
    bot: false,
    rights: '0',
    intents: '33281',
    shardId: 0,
    shardCount: 0,
    capabilities: 16381,
    guildIds: ['4194304000000', '4194308194304'],
    status: 'online',
    seq: 1,
    floor: 1,
    socket: { nodeId: '127.0.0.1:7001@1', socketId: 'socket-1' },
    createdAtMs: 1_700_000_000_000,
    detachedAtMs: undefined,
    ...extra,
  };
}

const frame = (seq: number): BufferedFrame => ({
  seq,
  event: 'MESSAGE_CREATE',
  data: `{"content":"m ${seq} — ünïcode, spaces and \\"quotes\\""}`,
});
const frames = (from: number, to: number): BufferedFrame[] =>
  Array.from({ length: to - from + 1 }, (_, index) => frame(from + index));

/**
 * The SessionStore contract (DESIGN §8.5: a session resumes on any node while it lives), run unchanged
 * against the in-memory store (unit/) and Redis (integration/). Session ids are fresh per test.
 */
export function sessionStoreContract(create: () => Promise<SessionStoreFixture>): void {
  let fixture: SessionStoreFixture;
  let store: SessionStore;
  const run = randomBytes(4).toString('hex');
  let counter = 0;
  const aSessionId = (): string => `${run}${String((counter += 1)).padStart(24, '0')}`;

  beforeEach(async () => {
    fixture = await create();
    store = fixture.store;
  });

  it('loads nothing for a session that was never saved', async () => {
    assert.equal(await store.load(aSessionId()), undefined);
  });

  it('loads a saved record as saved, attached or detached', async () => {
    const attached = aSessionId();
    const detached = aSessionId();
    const record = aSessionRecord();
    await store.save(attached, record, TTL);
    const gone = aSessionRecord({ socket: undefined, detachedAtMs: 1_700_000_000_500, guildIds: [], bot: true });
    await store.save(detached, gone, TTL);
    assert.deepEqual(await store.load(attached), { record, frames: [] });
    assert.deepEqual(await store.load(detached), { record: gone, frames: [] });
  });

  it('replaces the record on save and keeps the frames', async () => {
    const id = aSessionId();
    await store.save(id, aSessionRecord(), TTL);
    await store.addFrames(id, frames(2, 3), { seq: 3, floor: 1, maxFrames: 10, ttlMs: TTL });
    const next = aSessionRecord({ seq: 4, socket: { nodeId: 'other@2', socketId: 's2' }, guildIds: ['1'] });
    await store.save(id, next, TTL);
    assert.deepEqual(await store.load(id), { record: next, frames: frames(2, 3) });
  });

  it('appends frames in order and moves seq and floor with them', async () => {
    const id = aSessionId();
    await store.save(id, aSessionRecord(), TTL);
    await store.addFrames(id, frames(2, 4), { seq: 4, floor: 1, maxFrames: 10, ttlMs: TTL });
    await store.addFrames(id, [frame(5)], { seq: 5, floor: 1, maxFrames: 10, ttlMs: TTL });
    await store.addFrames(id, [], { seq: 6, floor: 1, maxFrames: 10, ttlMs: TTL }); // RESUMED: seq moves alone
    const loaded = await store.load(id);
    assert.deepEqual(loaded?.frames, frames(2, 5));
    assert.equal(loaded?.record.seq, 6);
    assert.equal(loaded?.record.floor, 1);
  });

  it('keeps only the newest maxFrames frames', async () => {
    const id = aSessionId();
    await store.save(id, aSessionRecord(), TTL);
    await store.addFrames(id, frames(2, 6), { seq: 6, floor: 3, maxFrames: 3, ttlMs: TTL });
    await store.addFrames(id, frames(7, 8), { seq: 8, floor: 5, maxFrames: 3, ttlMs: TTL });
    const loaded = await store.load(id);
    assert.deepEqual(loaded?.frames, frames(6, 8));
    assert.equal(loaded?.record.floor, 5);
  });

  it('keeps thousands of frames of one batch', async () => {
    const id = aSessionId();
    await store.save(id, aSessionRecord(), TTL);
    await store.addFrames(id, frames(2, 2_501), { seq: 2_501, floor: 1, maxFrames: 2_000, ttlMs: TTL });
    const loaded = await store.load(id);
    assert.equal(loaded?.frames.length, 2_000);
    assert.deepEqual(loaded?.frames[0], frame(502));
    assert.deepEqual(loaded?.frames.at(-1), frame(2_501));
  });

  it('does not bring back a deleted session on a late frame write', async () => {
    const id = aSessionId();
    await store.save(id, aSessionRecord(), TTL);
    await store.delete(id);
    await store.addFrames(id, [frame(2)], { seq: 2, floor: 1, maxFrames: 10, ttlMs: TTL });
    await store.touch(id, TTL);
    assert.equal(await store.load(id), undefined);
  });

  it('refuses frames written after another activation moved the session on, keeping its frames', async () => {
    const id = aSessionId();
    await store.save(id, aSessionRecord(), TTL);
    await store.addFrames(id, [frame(2)], { seq: 2, floor: 1, maxFrames: 10, ttlMs: TTL, after: 1 });
    // A deposed activation that last saw seq 1 numbers its own frame 2: refused, the successor's stays.
    await assert.rejects(
      store.addFrames(id, [{ seq: 2, event: 'MESSAGE_CREATE', data: '"stale"' }], {
        seq: 2,
        floor: 1,
        maxFrames: 10,
        ttlMs: TTL,
        after: 1,
      }),
      WrongOwnerError,
    );
    const loaded = await store.load(id);
    assert.deepEqual(loaded?.frames, [frame(2)]);
    assert.equal(loaded?.record.seq, 2);
  });

  it('refuses a record save whose seq is below the stored one', async () => {
    const id = aSessionId();
    await store.save(id, aSessionRecord(), TTL);
    await store.addFrames(id, frames(2, 3), { seq: 3, floor: 1, maxFrames: 10, ttlMs: TTL, after: 1 });
    await assert.rejects(store.save(id, aSessionRecord({ seq: 2 }), TTL), WrongOwnerError);
    assert.equal((await store.load(id))?.record.seq, 3);
  });

  it('forgets a session its ttl after the last write', async () => {
    const id = aSessionId();
    await store.save(id, aSessionRecord(), 10_000);
    await fixture.elapse(6_000);
    await store.addFrames(id, [frame(2)], { seq: 2, floor: 1, maxFrames: 10, ttlMs: 10_000 });
    await fixture.elapse(6_000);
    assert.deepEqual((await store.load(id))?.frames, [frame(2)], 'a write extends the session');
    await fixture.elapse(4_001);
    assert.equal(await store.load(id), undefined);
  });

  it('extends a quiet session on touch', async () => {
    const id = aSessionId();
    await store.save(id, aSessionRecord(), 10_000);
    await fixture.elapse(8_000);
    await store.touch(id, 10_000);
    await fixture.elapse(8_000);
    assert.ok(await store.load(id), 'touched within its ttl, the session lives on');
    await fixture.elapse(2_001);
    assert.equal(await store.load(id), undefined);
  });

  it('shortens the life of a session saved with a shorter ttl (a detach near the end of the window)', async () => {
    const id = aSessionId();
    await store.save(id, aSessionRecord(), 60_000);
    await store.save(id, aSessionRecord({ socket: undefined, detachedAtMs: 1 }), 1_000);
    await fixture.elapse(1_001);
    assert.equal(await store.load(id), undefined);
  });

  it('keeps sessions apart', async () => {
    const [a, b] = [aSessionId(), aSessionId()];
    await store.save(a, aSessionRecord({ userId: '1' }), TTL);
    await store.save(b, aSessionRecord({ userId: '2' }), TTL);
    await store.addFrames(a, [frame(2)], { seq: 2, floor: 1, maxFrames: 10, ttlMs: TTL });
    await store.delete(b);
    assert.equal((await store.load(a))?.record.userId, '1');
    assert.deepEqual((await store.load(a))?.frames, [frame(2)]);
    assert.equal(await store.load(b), undefined);
  });

  it('applies the writes of many sessions issued at once, each in order', async () => {
    const ids = Array.from({ length: 300 }, () => aSessionId());
    await Promise.all(ids.map((id) => store.save(id, aSessionRecord(), TTL)));
    await Promise.all(
      ids.flatMap((id) => [
        store.addFrames(id, [frame(2)], { seq: 2, floor: 1, maxFrames: 2, ttlMs: TTL }),
        store.addFrames(id, [frame(3)], { seq: 3, floor: 1, maxFrames: 2, ttlMs: TTL }),
        store.addFrames(id, [frame(4)], { seq: 4, floor: 2, maxFrames: 2, ttlMs: TTL }),
      ]),
    );
    const loaded = await Promise.all(ids.map((id) => store.load(id)));
    for (const [index, session] of loaded.entries()) {
      assert.deepEqual(session?.frames, frames(3, 4), `frames of session ${ids[index]}`);
      assert.equal(session?.record.seq, 4);
    }
  });
}
