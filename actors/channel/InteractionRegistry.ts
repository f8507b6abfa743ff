import type { MessageRecord } from '../runtime/ports/records.js';

/** How long an interaction stays known: its token's lifetime (Discord: 15 minutes). */
export const INTERACTION_LIFETIME_MS = 15 * 60_000;
/** How long the application has to answer (Discord: 3 seconds), else the user sees the failure. */
export const INTERACTION_WINDOW_MS = 3_000;
/** Most interactions one channel keeps at once; the oldest are forgotten first beyond it. */
const MAX_LIVE_INTERACTIONS = 5_000;

/** A modal the application showed, waiting for the user to submit it (type 5 names it by `data.id`). */
export interface PendingModal {
  readonly customId: string;
  /** The text inputs by custom_id, with the bounds the submission must respect. */
  readonly inputs: ReadonlyMap<string, { readonly required: boolean; readonly min: number; readonly max: number }>;
}

/** One interaction's live state, owned by the Channel actor of its channel. */
export interface LiveInteraction {
  readonly id: string;
  readonly token: string;
  /** Interaction type: 2 command, 3 component, 4 autocomplete, 5 modal submit. */
  readonly type: number;
  readonly applicationId: string;
  readonly botUserId: string;
  readonly invokerId: string;
  readonly nonce: string | null;
  readonly createdAtMs: number;
  /** Discord's interaction_metadata of the messages that answer it. */
  readonly metadata: Record<string, unknown>;
  /** The message whose component was clicked (type 3, and a modal opened from one). */
  readonly sourceMessageId: string | null;
  /** The message type of the responses: 20 CHAT_INPUT_COMMAND, 0 otherwise. */
  readonly responseType: number;
  acknowledged: boolean;
  /** The 3 s window closed unanswered: the user was told it failed. */
  failed: boolean;
  /** The response message (type 4 or 5), or the source message after a type 6 or 7. */
  originalMessageId: string | null;
  /** Ephemeral messages of this interaction (original and followups), by id: kept here, never stored. */
  readonly ephemeral: Map<string, MessageRecord>;
  /** A modal shown in answer (type 9), by the modal's id. */
  modal?: { readonly id: string } & PendingModal;
}

/**
 * The interactions of one channel, in memory: a channel actor that fails over forgets them, and their
 * callbacks then answer 404 10062 as for an expired interaction (it does not passivate while one is
 * live). Entries go after INTERACTION_LIFETIME_MS, and the oldest beyond MAX_LIVE_INTERACTIONS.
 */
export class InteractionRegistry {
  readonly #live = new Map<string, LiveInteraction>();
  /** modal id → interaction id. */
  readonly #modals = new Map<string, string>();
  /** ephemeral message id → the interaction it answered (which holds the message). */
  readonly #ephemeralOwners = new Map<string, string>();

  /** When the newest interaction was created (0: none yet). */
  #newestMs = 0;

  /** Keeps a new interaction (and prunes the old ones). */
  add(interaction: LiveInteraction, nowMs: number): void {
    this.#prune(nowMs);
    this.#live.set(interaction.id, interaction);
    this.#newestMs = Math.max(this.#newestMs, interaction.createdAtMs);
  }

  /** True while an interaction may still be answered or followed up (its 15 minutes are not over). */
  holdsLive(nowMs: number): boolean {
    return nowMs - this.#newestMs < INTERACTION_LIFETIME_MS;
  }

  /** A live interaction, or undefined when unknown or past its lifetime. */
  get(id: string, nowMs: number): LiveInteraction | undefined {
    const found = this.#live.get(id);
    return found !== undefined && nowMs - found.createdAtMs < INTERACTION_LIFETIME_MS ? found : undefined;
  }

  /** Keeps an ephemeral message of an interaction (in memory only: it is never stored). */
  addEphemeral(interaction: LiveInteraction, message: MessageRecord): void {
    interaction.ephemeral.set(message.id, message);
    this.#ephemeralOwners.set(message.id, interaction.id);
  }

  /**
   * An ephemeral message of this application shown to `userId`, whichever of their interactions it
   * answered (a later click on its components, or an edit through another token, reaches it).
   */
  ephemeral(messageId: string, userId: string, applicationId: string, nowMs: number): MessageRecord | undefined {
    const owner = this.get(this.#ephemeralOwners.get(messageId) ?? '', nowMs);
    if (owner?.invokerId !== userId || owner.applicationId !== applicationId) return undefined;
    return owner.ephemeral.get(messageId);
  }

  /** Forgets an ephemeral message; false when there was none. */
  dropEphemeral(messageId: string): boolean {
    const owner = this.#live.get(this.#ephemeralOwners.get(messageId) ?? '');
    this.#ephemeralOwners.delete(messageId);
    return owner?.ephemeral.delete(messageId) === true;
  }

  /** Remembers the modal an interaction answered with, so its submission can be checked. */
  showModal(interaction: LiveInteraction, modal: { readonly id: string } & PendingModal): void {
    interaction.modal = modal;
    this.#modals.set(modal.id, interaction.id);
  }

  /** The interaction that showed modal `modalId` to `userId`, if it is still live. */
  modalOf(modalId: string, userId: string, nowMs: number): LiveInteraction | undefined {
    const interaction = this.get(this.#modals.get(modalId) ?? '', nowMs);
    return interaction?.invokerId === userId ? interaction : undefined;
  }

  #prune(nowMs: number): void {
    for (const [id, interaction] of this.#live) {
      const old = nowMs - interaction.createdAtMs >= INTERACTION_LIFETIME_MS;
      if (!old && this.#live.size < MAX_LIVE_INTERACTIONS) break; // insertion order: the rest are newer
      this.#live.delete(id);
      if (interaction.modal) this.#modals.delete(interaction.modal.id);
      for (const messageId of interaction.ephemeral.keys()) this.#ephemeralOwners.delete(messageId);
    }
  }
}
