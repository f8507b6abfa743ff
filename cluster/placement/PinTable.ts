import { ActorKind } from '../../actors/runtime/ActorKind.js';
import { ValidationError } from '../../src/domain/errors.js';
import type { Pins } from '../ring/HashRing.js';

/** The placement overrides under a version that grows with every change. */
export interface PinSet {
  readonly version: number;
  /** Actor key (`guild:123`) → node id or `host:port` (HashRing resolves it to a live member). */
  readonly pins: Pins;
}

/** No pins (version 0 is never written). */
export const EMPTY_PINS: PinSet = Object.freeze({ version: 0, pins: new Map<string, string>() });

/**
 * Where the placement overrides live: next to membership (Redis in cluster mode, memory in the
 * embedded mode and tests). Every change bumps the version and is announced to watchers.
 */
export interface PinTable {
  /** The stored pins, or only the version when it is still `knownVersion` (nothing to re-read). */
  read(knownVersion?: number): Promise<PinSet | number>;
  /** Pins `key` to `target`; resolves to the new version. */
  pin(key: string, target: string): Promise<number>;
  /** Removes the pin of `key` (the key follows the ring again); resolves to the new version. */
  unpin(key: string): Promise<number>;
  /** Calls `listener` with every version announced from now on; resolves to the unsubscribe. */
  watch(listener: (version: number) => void): Promise<() => Promise<void>>;
}

const KINDS = new Set<string>(Object.values(ActorKind));
const PIN_KEY = /^([a-z]+):([0-9A-Za-z_-]{1,64})$/;
const PIN_TARGET = /^[^\s@]+:\d{1,5}(@\d+)?$/;

/** Refuses a pin no node could ever place by: an unknown actor kind or a malformed node address. */
export function assertPin(key: string, target: string): void {
  const kind = PIN_KEY.exec(key)?.[1];
  if (kind === undefined || !KINDS.has(kind))
    throw ValidationError.field('key', 'PIN_KEY_INVALID', `Expected kind:id with kind one of ${[...KINDS].join(', ')}`);
  if (!PIN_TARGET.test(target))
    throw ValidationError.field('node', 'PIN_NODE_INVALID', 'Expected host:port or host:port@incarnation');
}
