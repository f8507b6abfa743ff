import { ServiceUnavailableError } from '../../src/domain/errors.js';
import type { Logger } from '../../src/domain/Logger.js';
import { withTimeLimit } from '../../src/domain/timeLimit.js';
import { EMPTY_PINS, type PinSet, type PinTable } from './PinTable.js';

/** Timing of the pin follower. */
export interface PinFollowerOptions {
  /** How often the version is re-read (bounds a lost announcement). */
  readonly refreshMs: number;
  /** Bound on one round trip to the table. */
  readonly opTimeoutMs: number;
}

const DEFAULTS: PinFollowerOptions = { refreshMs: 1_000, opTimeoutMs: 1_000 };

/**
 * This node's copy of the placement pins: read at start, re-read on each announcement and every
 * `refreshMs` (a version check, so it costs one small reply while nothing changed). While the table
 * is unreachable the last pins stay in force, as the last membership view does.
 */
export class PinFollower {
  readonly #options: PinFollowerOptions;
  readonly #listeners = new Set<(pins: PinSet) => void>();
  #set: PinSet = EMPTY_PINS;
  #timer: ReturnType<typeof setInterval> | undefined;
  #unwatch: (() => Promise<void>) | undefined;
  #reading: Promise<void> | undefined;
  #readAgain = false;
  #failing = false;

  constructor(
    private readonly table: PinTable,
    private readonly log: Logger,
    options: Partial<PinFollowerOptions> = {},
  ) {
    this.#options = { ...DEFAULTS, ...options };
  }

  /** Reads the pins and follows them; rejects when the table cannot be reached. */
  async start(): Promise<void> {
    this.#unwatch = await this.#bounded(
      this.table.watch((version) => {
        if (version !== this.#set.version) this.#refreshQuietly();
      }),
    );
    try {
      await this.refresh();
    } catch (error) {
      await this.#unwatch().catch(() => undefined); // the caller gives up on this follower
      throw error;
    }
    this.#timer = setInterval(() => {
      this.#refreshQuietly();
    }, this.#options.refreshMs);
    this.#timer.unref();
  }

  /** The newest pins this node has seen. */
  current(): PinSet {
    return this.#set;
  }

  /** Re-reads now (after a call reached a node that disagrees on an owner); rejects when unreachable. */
  refresh(): Promise<void> {
    if (this.#reading) {
      this.#readAgain = true; // a change announced during a read must not be missed
      return this.#reading;
    }
    this.#reading = this.#read().finally(() => {
      this.#reading = undefined;
      if (this.#readAgain) {
        this.#readAgain = false;
        this.#refreshQuietly();
      }
    });
    return this.#reading;
  }

  /** Calls `listener` with each newer pin set; returns the unsubscribe. */
  onChange(listener: (pins: PinSet) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Stops following. Never rejects. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#listeners.clear();
    await this.#unwatch?.().catch(() => undefined);
  }

  async #read(): Promise<void> {
    const read = await this.#bounded(this.table.read(this.#set.version));
    // Any other version is news: one below ours means Redis restarted empty, and what it holds now rules.
    if (typeof read === 'number' || read.version === this.#set.version) return;
    this.#set = read;
    this.log.info('pins_changed', { version: read.version, pins: read.pins.size });
    for (const listener of this.#listeners) listener(read);
  }

  #refreshQuietly(): void {
    this.refresh().then(
      () => {
        if (this.#failing) this.log.info('pins_read_recovered', { version: this.#set.version });
        this.#failing = false;
      },
      (error: unknown) => {
        if (!this.#failing) this.log.warn('pins_read_failed', { err: String(error) });
        this.#failing = true;
      },
    );
  }

  #bounded<T>(operation: Promise<T>): Promise<T> {
    const ms = this.#options.opTimeoutMs;
    return withTimeLimit(operation, ms, () => new ServiceUnavailableError(`Pin table did not answer in ${ms} ms`));
  }
}
