import type {
  BufferedFrame,
  FrameProgress,
  SessionRecord,
  SessionStore,
  StoredSession,
} from '../../../actors/runtime/ports/sessionStore.js';
import { systemClock, type Clock } from '../../domain/Clock.js';
import { WrongOwnerError } from '../../domain/errors.js';

/** What an evicted slot holds until the next compaction (the frame's text is not kept alive by it). */
const EVICTED: BufferedFrame = { seq: 0, event: '', data: '' };

interface Entry {
  record: SessionRecord;
  /** The record's seq and floor as frames moved them (kept apart: no record copy per frame). */
  seq: number;
  floor: number;
  /** Kept frames, oldest first, from `head` on (compacted now and then instead of shifted per frame). */
  frames: BufferedFrame[];
  head: number;
  expiresAt: number;
}

/** Expired entries are swept once this many sessions were written since the last sweep. */
const SWEEP_EVERY = 1024;
/** What every write answers: one settled promise, not one per frame written. */
const DONE: Promise<void> = Promise.resolve();

/** The refusal of a write based on what another activation has overwritten since. */
function staleWrite(sessionId: string): Promise<void> {
  return Promise.reject(new WrongOwnerError(`session:${sessionId} was written by another activation`));
}

/**
 * Sessions in this process (embedded mode, unit tests): the semantics of RedisSessionStore with
 * expiry read from an injected clock. In embedded mode every actor runs in this process, so this keeps
 * a session across passivation and eviction exactly as long as the process lives.
 */
export class InMemorySessionStore implements SessionStore {
  /**
   * Every write is applied (or refused) synchronously: sessions need not wait a turn of the event loop
   * to push. A refusal needs two activations of one session, which one process never has at once.
   */
  readonly writesApplyOnCall = true;
  readonly #sessions = new Map<string, Entry>();
  #writes = 0;

  constructor(private readonly clock: Clock = systemClock) {}

  save(sessionId: string, record: SessionRecord, ttlMs: number): Promise<void> {
    const now = this.clock.now();
    const entry = this.#live(sessionId, now);
    if (entry && entry.seq > record.seq) return staleWrite(sessionId);
    if (entry) {
      entry.record = record;
      entry.seq = record.seq;
      entry.floor = record.floor;
      entry.expiresAt = now + ttlMs;
    } else {
      const { seq, floor } = record;
      this.#sessions.set(sessionId, { record, seq, floor, frames: [], head: 0, expiresAt: now + ttlMs });
      this.#sweepSometimes(now);
    }
    return DONE;
  }

  addFrames(sessionId: string, frames: readonly BufferedFrame[], progress: FrameProgress): Promise<void> {
    const now = this.clock.now();
    const entry = this.#live(sessionId, now);
    if (!entry) return DONE; // ended or expired: nothing to resume any more
    if (progress.after !== undefined && entry.seq !== progress.after) return staleWrite(sessionId);
    for (const frame of frames) entry.frames.push(frame);
    // Past the count, and at or below the floor (the session dropped them: its buffer is bounded by bytes too).
    const keepFrom = Math.max(entry.head, entry.frames.length - Math.max(0, progress.maxFrames));
    while (
      entry.head < entry.frames.length &&
      (entry.head < keepFrom || (entry.frames[entry.head] as BufferedFrame).seq <= progress.floor)
    ) {
      entry.frames[entry.head] = EVICTED; // its text goes now, not at the next compaction
      entry.head += 1;
    }
    if (entry.head > 1024 && entry.head * 2 > entry.frames.length) {
      entry.frames.splice(0, entry.head);
      entry.head = 0;
    }
    entry.seq = progress.seq;
    entry.floor = progress.floor;
    entry.expiresAt = now + progress.ttlMs;
    return DONE;
  }

  load(sessionId: string): Promise<StoredSession | undefined> {
    const entry = this.#live(sessionId, this.clock.now());
    if (!entry) return Promise.resolve(undefined);
    const record = { ...entry.record, seq: entry.seq, floor: entry.floor };
    return Promise.resolve({ record, frames: entry.frames.slice(entry.head) });
  }

  touch(sessionId: string, ttlMs: number): Promise<void> {
    const now = this.clock.now();
    const entry = this.#live(sessionId, now);
    if (entry) entry.expiresAt = now + ttlMs;
    return DONE;
  }

  delete(sessionId: string): Promise<void> {
    this.#sessions.delete(sessionId);
    return DONE;
  }

  #live(sessionId: string, now: number): Entry | undefined {
    const entry = this.#sessions.get(sessionId);
    if (entry && entry.expiresAt <= now) {
      this.#sessions.delete(sessionId);
      return undefined;
    }
    return entry;
  }

  #sweepSometimes(now: number): void {
    this.#writes += 1;
    if (this.#writes < SWEEP_EVERY) return;
    this.#writes = 0;
    for (const [id, entry] of this.#sessions) if (entry.expiresAt <= now) this.#sessions.delete(id);
  }
}
