/**
 * Bytes of frames a session keeps for replay by default. A count alone does not bound memory: 2,000
 * frames are 200 KB of typing events or megabytes of large MESSAGE_CREATEs and GUILD_MEMBERS_CHUNKs.
 * A client gone longer than this much traffic identifies again (op 9), as one past the count does.
 */
export const RESUME_BUFFER_BYTES = 512 * 1024;

import type { BufferedFrame } from '../runtime/ports/sessionStore.js';

/** Evicted slots are dropped in one splice once this many (and half the array) accumulated. */
const COMPACT_FROM = 64;

/**
 * The dispatch frames a session keeps so a client can resume: the newest ones, at most `capacity` of
 * them and at most `maxBytes` of payload text (UTF-16 code units, a close enough measure), oldest evicted first.
 * A kept frame holds the payload string its fan-out shared, not a text of its own: a frame's text differs
 * per session only by its sequence number, and a text kept per session would be copied into the old
 * generation by every young collection that finds it alive.
 * Nothing is allocated until a frame arrives: most sessions are quiet.
 * `floor` is the lowest sequence a client may resume from: READY's sequence at first (a client that
 * never saw READY cannot resume), then the sequence of the newest frame evicted for lack of room.
 */
export class ResumeBuffer {
  /** Kept frames from `#head` on, oldest first; the slots before it were evicted. */
  #frames: (BufferedFrame | undefined)[] | undefined;
  #head = 0;
  #bytes = 0;
  #floor = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxBytes = RESUME_BUFFER_BYTES,
  ) {}

  /** Frames held now. */
  get size(): number {
    return (this.#frames?.length ?? 0) - this.#head;
  }

  /** Text held now, in UTF-16 code units. */
  get bytes(): number {
    return this.#bytes;
  }

  /** The lowest sequence a client may resume from. */
  get floor(): number {
    return this.#floor;
  }

  /** Sets the lowest resumable sequence (the READY frame's, which is not kept itself). */
  setFloor(seq: number): void {
    this.#floor = seq;
  }

  /** Keeps a frame; the oldest ones go while there are too many or they are too large. */
  append(frame: BufferedFrame): void {
    if (this.capacity <= 0 || frame.data.length > this.maxBytes) {
      // Cannot be kept: neither can anything before it be replayed without it.
      this.#clear();
      this.#floor = frame.seq;
      return;
    }
    this.#frames ??= [];
    this.#frames.push(frame);
    this.#bytes += frame.data.length;
    while (this.size > this.capacity || this.#bytes > this.maxBytes) this.#evictOldest(this.#frames);
  }

  /**
   * Every kept frame with a sequence above `seq`, in order; undefined when the client's `seq` is
   * older than the buffer reaches back (frames were evicted) or newer than `lastSeq` (never sent).
   */
  framesAfter(seq: number, lastSeq: number): BufferedFrame[] | undefined {
    if (!Number.isInteger(seq) || seq < this.#floor || seq > lastSeq) return undefined;
    const out: BufferedFrame[] = [];
    const frames = this.#frames ?? [];
    for (let at = this.#head; at < frames.length; at += 1) {
      const frame = frames[at] as BufferedFrame;
      if (frame.seq > seq) out.push(frame);
    }
    return out;
  }

  #evictOldest(frames: (BufferedFrame | undefined)[]): void {
    const oldest = frames[this.#head] as BufferedFrame;
    this.#floor = oldest.seq;
    this.#bytes -= oldest.data.length;
    frames[this.#head] = undefined; // the payload goes now (when no other session holds it), not at compaction
    this.#head += 1;
    if (this.#head >= COMPACT_FROM && this.#head * 2 >= frames.length) {
      frames.splice(0, this.#head);
      this.#head = 0;
    }
  }

  #clear(): void {
    this.#frames = undefined;
    this.#head = 0;
    this.#bytes = 0;
  }
}
