/**
 * The dispatch frames a session keeps so a client can resume: a ring of the last `capacity` frames.
 * `floor` is the lowest sequence a client may resume from: READY's sequence at first (a client that
 * never saw READY cannot resume), then the sequence of the newest frame evicted for lack of room.
 */
export class ResumeBuffer {
  readonly #seqs: number[];
  readonly #frames: string[];
  #start = 0;
  #size = 0;
  #floor = 0;

  constructor(private readonly capacity: number) {
    this.#seqs = new Array<number>(capacity);
    this.#frames = new Array<string>(capacity);
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
    if (this.#size === this.capacity) {
      this.#floor = this.#seqs[this.#start] as number;
      this.#start = (this.#start + 1) % this.capacity;
      this.#size -= 1;
    }
    const at = (this.#start + this.#size) % this.capacity;
    this.#seqs[at] = seq;
    this.#frames[at] = frame;
    this.#size += 1;
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
