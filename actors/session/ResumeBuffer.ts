/**
 * The dispatch frames a session keeps so a client can resume: a ring of the last `capacity` frames,
 * allocated as frames arrive.
 * `floor` is the lowest sequence a client may resume from: READY's sequence at first (a client that
 * never saw READY cannot resume), then the sequence of the newest frame evicted for lack of room.
 */
export class ResumeBuffer {
  readonly #seqs: number[];
  readonly #frames: string[];
  #start = 0;
  #size = 0;
  #floor = 0;

  /** The arrays grow with use: most sessions are quiet, and 2,000 empty slots cost 32 KB each. */
  constructor(private readonly capacity: number) {
    this.#seqs = [];
    this.#frames = [];
  }

  /** Frames held now. */
  get size(): number {
    return this.#size;
  }

  /** The lowest sequence a client may resume from. */
  get floor(): number {
    return this.#floor;
  }

  /** Sets the lowest resumable sequence (the READY frame's, which is not kept itself). */
  setFloor(seq: number): void {
    this.#floor = seq;
  }

  /** Keeps a frame; the oldest one goes when full. */
  append(seq: number, frame: string): void {
    if (this.capacity <= 0) {
      this.#floor = seq;
      return;
    }
    if (this.#size < this.capacity) {
      // Not full yet: nothing was overwritten, so the ring still starts at 0 and the arrays just grow.
      this.#seqs.push(seq);
      this.#frames.push(frame);
      this.#size += 1;
      return;
    }
    // Full: the newest frame takes the oldest one's slot.
    this.#floor = this.#seqs[this.#start] as number;
    this.#seqs[this.#start] = seq;
    this.#frames[this.#start] = frame;
    this.#start = (this.#start + 1) % this.capacity;
  }

  /**
   * Every kept frame with a sequence above `seq`, in order; undefined when the client's `seq` is
   * older than the buffer reaches back (frames were evicted) or newer than `lastSeq` (never sent).
   */
  framesAfter(seq: number, lastSeq: number): string[] | undefined {
    if (!Number.isInteger(seq) || seq < this.#floor || seq > lastSeq) return undefined;
    const out: string[] = [];
    for (let i = 0; i < this.#size; i += 1) {
      const at = (this.#start + i) % this.capacity;
      if ((this.#seqs[at] as number) > seq) out.push(this.#frames[at] as string);
    }
    return out;
  }
}
