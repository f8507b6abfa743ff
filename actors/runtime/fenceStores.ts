import type { CommitFence } from './ports/coordination.js';
import type { Stores } from './ports/stores.js';

/** Port methods that change storage: these wait for the fence; everything else passes straight through. */
const WRITE = /^(create|save|update|insert|delete|add|remove)/;

/** True when a port method name is a write the fence must guard. */
export function isWriteMethod(name: string): boolean {
  return WRITE.test(name);
}

function fencePort<T extends object>(port: T, check: CommitFence): T {
  const wrapped = new Map<PropertyKey, unknown>();
  return new Proxy(port, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value !== 'function' || typeof property !== 'string') return value;
      let method = wrapped.get(property);
      if (method === undefined) {
        const fn = value as (...args: unknown[]) => unknown;
        method = isWriteMethod(property)
          ? async (...args: unknown[]): Promise<unknown> => {
              await check();
              return fn.apply(target, args);
            }
          : fn.bind(target);
        wrapped.set(property, method);
      }
      return method;
    },
  });
}

/**
 * The same ports, with every write refused unless `check` resolves first (DESIGN §8.1): a deposed
 * owner's writes fail with whatever `check` throws (WrongOwnerError) and never reach storage.
 * Reads are not fenced: a stale read cannot overwrite a successor's state. Ports added to Stores
 * later are fenced too, since every object-valued member is wrapped on first use.
 */
export function fenceStores<T extends object = Stores>(stores: T, check: CommitFence): T {
  const ports = new Map<PropertyKey, unknown>();
  return new Proxy(stores, {
    get(target, property, receiver) {
      const value: unknown = Reflect.get(target, property, receiver);
      if (typeof value === 'function') return (value as (...args: unknown[]) => unknown).bind(target);
      if (value === null || typeof value !== 'object') return value;
      let port = ports.get(property);
      if (port === undefined) ports.set(property, (port = fencePort(value, check)));
      return port;
    },
  });
}
