/**
 * Bytes of frames a session keeps for replay by default. A count alone does not bound memory: 2,000
 * frames are 200 KB of typing events or megabytes of large MESSAGE_CREATEs and GUILD_MEMBERS_CHUNKs.
 * A client gone longer than this much traffic identifies again (op 9), as one past the count does.
 */
export const RESUME_BUFFER_BYTES = 512 * 1024;

/** Evicted slots are dropped in one splice once this many (and half the array) accumulated. */
const COMPACT_FROM = 64;

/**
 * The dispatch frames a session keeps so a client can resume: the newest ones, at most `capacity` of
 * them and at most `maxBytes` of text (UTF-16 code units, a close enough measure), oldest evicted first.
 * Nothing is allocated until a frame arrives: most sessions are quiet.
 * `floor` is the lowest sequence a client may resume from: READY's sequence at first (a client that
 * never saw READY cannot resume), then the sequence of the newest frame evicted for lack of room.
 */
export class ResumeBuffer {
  /** Kept frames from `#head` on, oldest first; the slots before it were evicted. */
  #seqs: number[] | undefined;
  #frames: (string | undefined)[] | undefined;
  #head = 0;
  #bytes = 0;
  #floor = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxBytes = RESUME_BUFFER_BYTES,
  ) {}

  /** Frames held now. */
  get size(): number {
    return (this.#seqs?.length ?? 0) - this.#head;
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
  append(seq: number, frame: string): void {
    if (this.capacity <= 0 || frame.length > this.maxBytes) {
      // Cannot be kept: neither can anything before it be replayed without it.
      this.#clear();
      this.#floor = seq;
      return;
    }
    this.#seqs ??= [];
    this.#frames ??= [];
    this.#seqs.push(seq);
    this.#frames.push(frame);
    this.#bytes += frame.length;
    while (this.size > this.capacity || this.#bytes > this.maxBytes) this.#evictOldest(this.#seqs, this.#frames);
  }

  /**
   * Every kept frame with a sequence above `seq`, in order; undefined when the client's `seq` is
   * older than the buffer reaches back (frames were evicted) or newer than `lastSeq` (never sent).
   */
  framesAfter(seq: number, lastSeq: number): string[] | undefined {
    if (!Number.isInteger(seq) || seq < this.#floor || seq > lastSeq) return undefined;
    const out: string[] = [];
    const seqs = this.#seqs ?? [];
    const frames = this.#frames ?? [];
    for (let at = this.#head; at < seqs.length; at += 1) {
      if ((seqs[at] as number) > seq) out.push(frames[at] as string);
    }
    return out;
  }

  #evictOldest(seqs: number[], frames: (string | undefined)[]): void {
    this.#floor = seqs[this.#head] as number;
    this.#bytes -= (frames[this.#head] as string).length;
    frames[this.#head] = undefined; // the text goes now, not at the next compaction
    this.#head += 1;
    if (this.#head >= COMPACT_FROM && this.#head * 2 >= seqs.length) {
      seqs.splice(0, this.#head);
      frames.splice(0, this.#head);
      this.#head = 0;
    }
  }

  #clear(): void {
    this.#seqs = undefined;
    this.#frames = undefined;
    this.#head = 0;
    this.#bytes = 0;
  }
}
