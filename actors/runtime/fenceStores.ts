import type { CommitFence } from './ports/coordination.js';
import { wrapPorts } from '../../src/domain/wrapPorts.js';
import type { Stores } from './ports/stores.js';

/** Port methods that change storage: these wait for the fence; everything else passes straight through. */
const WRITE = /^(create|save|update|insert|delete|add|remove)/;

/** True when a port method name is a write the fence must guard. */
export function isWriteMethod(name: string): boolean {
  return WRITE.test(name);
}

/**
 * The same ports, with every write refused unless `check` resolves first (DESIGN §8.1): a deposed
 * owner's writes fail with whatever `check` throws (WrongOwnerError) and never reach storage.
 * Reads are not fenced: a stale read cannot overwrite a successor's state. Ports added to Stores
 * later are fenced too, since every object-valued member is wrapped on first use.
 */
export function fenceStores<T extends object = Stores>(stores: T, check: CommitFence): T {
  return wrapPorts(
    stores,
    (_port, method, bound) =>
      isWriteMethod(method)
        ? async (...args: unknown[]): Promise<unknown> => {
            await check();
            return bound(...args);
          }
        : bound,
    // A fenced write waits for the check, so it is never applied on call, whatever the store underneath.
    (_port, field, value) => (field === 'writesApplyOnCall' ? false : value),
  );
}
