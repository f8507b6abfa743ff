import type { SessionEntry, SessionIndexStore } from '../../../actors/runtime/ports/sessionIndex.js';

/**
 * Session entries per owner in this process (embedded mode, unit tests): the semantics of
 * RedisSessionIndex. They outlive an actor's passivation for as long as the process lives.
 */
export class InMemorySessionIndex<T extends SessionEntry> implements SessionIndexStore<T> {
  readonly #owners = new Map<string, Map<string, T>>();

  add(ownerId: string, entry: T): Promise<void> {
    let sessions = this.#owners.get(ownerId);
    if (!sessions) this.#owners.set(ownerId, (sessions = new Map<string, T>()));
    sessions.set(entry.sessionId, { ...entry });
    return Promise.resolve();
  }

  remove(ownerId: string, sessionIds: readonly string[]): Promise<void> {
    const sessions = this.#owners.get(ownerId);
    if (!sessions) return Promise.resolve();
    for (const sessionId of sessionIds) sessions.delete(sessionId);
    if (sessions.size === 0) this.#owners.delete(ownerId);
    return Promise.resolve();
  }

  list(ownerId: string): Promise<T[]> {
    return Promise.resolve([...(this.#owners.get(ownerId)?.values() ?? [])].map((entry) => ({ ...entry })));
  }

  delete(ownerId: string): Promise<void> {
    this.#owners.delete(ownerId);
    return Promise.resolve();
  }
}
