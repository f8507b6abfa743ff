import type { BufferedFrame, FrameProgress, SessionStore, StoredSession } from '../runtime/ports/sessionStore.js';
import { ResumeBuffer } from './ResumeBuffer.js';
import { dispatchFrame, keptFrameText } from '../runtime/dispatchFrames.js';

/**
 * A session's sequence numbers and resume buffer, and their durable copy in the SessionStore. Frames
 * are numbered and kept here at once, but reach a socket only after `flush` wrote them: a client must
 * never hold a sequence number the store has not got, or a Session actor re-activated elsewhere
 * would hand that number out again and a Resume from it would skip events (DESIGN §8.5).
 */
export class SessionJournal {
  #seq = 0;
  readonly #buffer: ResumeBuffer;
  /** Kept frames not written yet, oldest first. */
  #unsaved: BufferedFrame[] = [];
  /** The sequence (and floor) the store has; a flush is due when they moved. */
  #savedSeq = 0;
  #savedFloor = 0;
  /** The record's seq as the store last had it from this activation: each write is conditional on it. */
  #storedSeq = 0;

  /** `refusedLate`: a write applied on call was refused (another activation of the session wrote). */
  constructor(
    private readonly store: SessionStore,
    private readonly sessionId: string,
    private readonly maxFrames: number,
    private readonly refusedLate: (error: unknown) => void,
  ) {
    this.#buffer = new ResumeBuffer(maxFrames);
  }

  /** The last sequence number handed out. */
  get seq(): number {
    return this.#seq;
  }

  /** The lowest sequence a client may resume from. */
  get floor(): number {
    return this.#buffer.floor;
  }

  /** Numbers READY (1): it is not replayable, so a client that missed it identifies again. */
  start(): number {
    this.#seq = 1;
    this.#buffer.setFloor(1);
    return 1;
  }

  /** Takes the next number for a frame that is not replayed (RESUMED). */
  next(): number {
    this.#seq += 1;
    return this.#seq;
  }

  /** Numbers a dispatch and keeps it for replay; it is written by the next flush. */
  record(event: string, dataJson: string): string {
    this.#seq += 1;
    const kept: BufferedFrame = { seq: this.#seq, event, data: dataJson };
    this.#buffer.append(kept);
    this.#unsaved.push(kept);
    if (this.#unsaved.length > this.maxFrames) this.#unsaved.splice(0, this.#unsaved.length - this.maxFrames);
    return dispatchFrame(event, this.#seq, dataJson);
  }

  /** Takes up the state a session's last writes left (the actor re-activated after a failover). */
  restore(stored: StoredSession): void {
    this.#seq = stored.record.seq;
    this.#buffer.setFloor(stored.record.floor);
    for (const frame of stored.frames) {
      this.#buffer.append(frame);
      if (frame.seq > this.#seq) this.#seq = frame.seq; // a frame write that landed without its record update
    }
    this.#savedSeq = this.#seq;
    this.#savedFloor = this.#buffer.floor;
    this.#storedSeq = stored.record.seq;
  }

  /** Kept frames after `seq`, in order; undefined when `seq` is outside what can be replayed. */
  framesAfter(seq: number): string[] | undefined {
    return this.#buffer.framesAfter(seq, this.#seq)?.map(keptFrameText);
  }

  /** Records that the store has `seq` and `floor` (a record saved with them). */
  noteSaved(seq: number, floor: number): void {
    this.#savedSeq = Math.max(this.#savedSeq, seq);
    this.#savedFloor = floor;
    this.#storedSeq = seq;
  }

  /** True when frames or the sequence moved since the last flush. */
  get dirty(): boolean {
    return this.#unsaved.length > 0 || this.#savedSeq !== this.#seq || this.#savedFloor !== this.#buffer.floor;
  }

  /**
   * Writes the frames and sequence not written yet; the session then lives `ttlMs` in the store. On
   * failure nothing is lost here: the next flush writes them again.
   */
  flush(ttlMs: number): Promise<void> {
    return this.flushThen(
      ttlMs,
      () => undefined,
      (error) => {
        throw error;
      },
    );
  }

  /**
   * flush, then `written` or `failed` (whose result it resolves with) in the same step: this runs once
   * per dispatch per session, so it is one promise chain link rather than an async function or two.
   */
  flushThen<T>(ttlMs: number, written: () => T, failed: (error: unknown) => T): Promise<T> {
    if (!this.dirty) return Promise.resolve(written());
    if (this.flushesOnCall) {
      // Applied already (an in-process store): go on now rather than a turn of the event loop later,
      // so a fan-out's first frames leave before its last sessions wrote theirs.
      this.flushNow(ttlMs);
      return Promise.resolve(written());
    }
    const progress = this.#progress(ttlMs);
    const frames = this.#unsaved;
    this.#unsaved = [];
    return this.store.addFrames(this.sessionId, frames, progress).then(
      () => {
        this.#saved(progress.seq, progress.floor);
        return written();
      },
      (error: unknown) => {
        this.#unsaved = [...frames, ...this.#unsaved];
        return failed(error);
      },
    );
  }

  /** True when the store applies a write before its call returns (in this process): `flushNow` may be used. */
  get flushesOnCall(): boolean {
    return this.store.writesApplyOnCall === true;
  }

  /**
   * Writes what is not written yet, applied before this returns (only when `flushesOnCall`): a fan-out
   * journals and pushes a session's frame in one step, with no promise to wait for. A refusal (another
   * activation wrote the session) is reported to `refusedLate`.
   */
  flushNow(ttlMs: number): void {
    if (!this.dirty) return;
    const progress = this.#progress(ttlMs);
    const frames = this.#unsaved;
    this.#unsaved = [];
    this.store.addFrames(this.sessionId, frames, progress).catch(this.refusedLate);
    this.#saved(progress.seq, progress.floor);
  }

  /** How far a write of the unsaved frames brings the session, and what the store must hold before it. */
  #progress(ttlMs: number): FrameProgress {
    return { seq: this.#seq, floor: this.#buffer.floor, maxFrames: this.maxFrames, ttlMs, after: this.#storedSeq };
  }

  #saved(seq: number, floor: number): void {
    this.#savedSeq = Math.max(this.#savedSeq, seq);
    this.#savedFloor = floor;
    this.#storedSeq = seq;
  }
}
