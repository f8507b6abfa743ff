import { systemClock, type Clock } from '../../src/domain/Clock.js';
import { assertPin, EMPTY_PINS, type PinSet, type PinTable } from './PinTable.js';

/**
 * Pins in one process, with the semantics of the Redis table: a version bumped by each change and
 * announcements delivered later (never inside the writer's call), as pub/sub would.
 */
export class InMemoryPinTable implements PinTable {
  readonly #watchers = new Set<(version: number) => void>();
  #set: PinSet = EMPTY_PINS;

  constructor(private readonly clock: Clock = systemClock) {}

  read(knownVersion?: number): Promise<PinSet | number> {
    return Promise.resolve(knownVersion === this.#set.version ? knownVersion : this.#set);
  }

  pin(key: string, target: string): Promise<number> {
    return new Promise((resolve) => {
      assertPin(key, target); // a throw here rejects the promise
      resolve(this.#write(new Map(this.#set.pins).set(key, target)));
    });
  }

  unpin(key: string): Promise<number> {
    const pins = new Map(this.#set.pins);
    pins.delete(key);
    return Promise.resolve(this.#write(pins));
  }

  watch(listener: (version: number) => void): Promise<() => Promise<void>> {
    this.#watchers.add(listener);
    return Promise.resolve(() => {
      this.#watchers.delete(listener);
      return Promise.resolve();
    });
  }

  #write(pins: Map<string, string>): number {
    // From the clock at the first write, as the Redis table numbers them (see there why).
    const version = (this.#set.version === 0 ? this.clock.now() : this.#set.version) + 1;
    this.#set = { version, pins };
    for (const watcher of this.#watchers) {
      queueMicrotask(() => {
        watcher(version);
      });
    }
    return version;
  }
}
