import type { Logger } from '../../src/domain/Logger.js';
import type { StoredVoiceState, VoiceStateStore } from '../runtime/ports/voiceStateStore.js';

/**
 * Writes a guild's voice states through to the VoiceStateStore, so a new activation of the Guild (after
 * passivation, or on another node when its node died) still lists the members connected to voice.
 *
 * Why the writes trail the in-memory change instead of being awaited: a voice state is soft state that its
 * holder re-asserts (op 4) and the voice service clears (a vanished client), and the functions that change it
 * are called from many synchronous handlers (channel deletes, kicks, moves). The writes are chained, so they
 * reach the store in the order the actor made them; a deactivation waits for them (`flush`). A write that
 * fails is logged; what it leaves stale is filtered on load (a state whose session is no longer subscribed
 * to the guild, or whose channel or member is gone, is dropped).
 */
export class GuildVoiceStore {
  #chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: VoiceStateStore | undefined,
    private readonly guildId: string,
    private readonly log: Logger,
  ) {}

  /** Stores `voice`; `replaced` is the state it takes over from (another session of the same user). */
  put(voice: StoredVoiceState, replaced?: StoredVoiceState): void {
    const { store, guildId } = this;
    if (!store) return;
    const stale = replaced && replaced.sessionId !== voice.sessionId ? [replaced.sessionId] : [];
    this.#write(async () => {
      if (stale.length > 0) await store.remove(guildId, stale);
      await store.add(guildId, { ...voice });
    });
  }

  /** Forgets the state `voice` (its user left voice). */
  remove(voice: StoredVoiceState): void {
    const { store, guildId } = this;
    if (store) this.#write(() => store.remove(guildId, [voice.sessionId]));
  }

  /** Forgets every stored state of the guild (it was deleted). */
  clear(): void {
    const { store, guildId } = this;
    if (store) this.#write(() => store.delete(guildId));
  }

  /** The stored states (activation). */
  async load(): Promise<StoredVoiceState[]> {
    return this.store ? this.store.list(this.guildId) : [];
  }

  /** Resolves once every write made so far reached the store (or failed and was logged). */
  flush(): Promise<void> {
    return this.#chain;
  }

  #write(work: () => Promise<void>): void {
    this.#chain = this.#chain.then(work).catch((error: unknown) => {
      this.log.warn('voice_state_write_failed', { guildId: this.guildId, error });
    });
  }
}
