import { compareSnowflakes } from '../../src/domain/snowflake.js';
import type { MessageRecord, ReactionRecord } from '../runtime/ports/records.js';
import type { MessagePage, MessageStore } from '../runtime/ports/stores.js';

/** Messages kept per channel: a page is at most 100 (Discord's largest). */
export const RECENT_CAPACITY = 100;
/** Rendered texts kept per channel, in characters; past it texts are rendered per request. */
const TEXT_BUDGET_CHARS = 512 * 1024;
/** Whole page texts kept per channel (one per limit asked). */
const MAX_KEPT_PAGES = 4;

/** One kept message: its record, its reactions, and its rendered text once asked (plain messages only). */
export interface Kept {
  readonly record: MessageRecord;
  readonly reactions: readonly ReactionRecord[];
  text: string | undefined;
}

/** A page read from the window: newest first, each with its reactions and its text if already rendered. */
export type WindowPage = readonly Kept[];

/**
 * The channel's newest messages, as the store holds them, so the default page (GET ?limit=N, the read every
 * client makes on opening a channel) is served without reading, parsing and re-serializing stored records.
 * The Channel actor is the only writer of its messages and all writes go through `watch(store)`, which
 * keeps the window exact: a new message is added on top; an edit, delete, pin or reaction change drops the
 * window (the next page read refills it with one store read), since they are rare next to reads.
 */
export class RecentMessages {
  /** Newest first; undefined until filled or after a change dropped it. */
  #window: Kept[] | undefined;
  /** True when the window holds every message of the channel (the store had fewer than RECENT_CAPACITY). */
  #complete = false;
  #textChars = 0;
  /** Whole pages of plain messages by limit (clients ask for one or two limits), gone with any change. */
  readonly #pages = new Map<number, string>();
  /** Bumped by every write, so a fill that overlapped one is not kept. */
  #generation = 0;

  /** The newest `limit` messages, from the window (filling it first), or undefined for a page it cannot serve. */
  async newest(store: MessageStore, channelId: string, page: MessagePage): Promise<WindowPage | undefined> {
    if (page.before !== undefined || page.after !== undefined || page.limit > RECENT_CAPACITY) return undefined;
    if (this.#window === undefined) await this.#fill(store, channelId);
    const window = this.#window;
    if (window === undefined || (window.length < page.limit && !this.#complete)) return undefined;
    return window.slice(0, page.limit);
  }

  /** Keeps a rendered text of a message of the window, within the budget. */
  keepText(kept: Kept, text: string): void {
    if (this.#textChars + text.length > TEXT_BUDGET_CHARS) return;
    kept.text = text;
    this.#textChars += text.length;
  }

  /** The kept text of the newest `limit` messages, when a page of plain messages was kept since the last change. */
  pageText(limit: number): string | undefined {
    return this.#pages.get(limit);
  }

  /** Keeps the text of the newest `limit` messages, all plain (see keepText); a few limits at most. */
  keepPage(limit: number, text: string): void {
    if (this.#pages.size >= MAX_KEPT_PAGES || this.#textChars + text.length > TEXT_BUDGET_CHARS) return;
    this.#pages.set(limit, text);
    this.#textChars += text.length;
  }

  /** The store as the channel's commands use it: every write also keeps or drops the window. */
  watch(store: MessageStore): MessageStore {
    const dropping =
      <A extends unknown[]>(write: (...args: A) => Promise<void>) =>
      async (...args: A): Promise<void> => {
        this.#drop();
        try {
          await write(...args);
        } finally {
          this.#drop();
        }
      };
    const watched: MessageStore = {
      insert: async (record) => {
        this.#generation += 1;
        try {
          await store.insert(record);
        } catch (error) {
          this.#drop();
          throw error;
        }
        this.#added(record);
      },
      update: dropping((record: MessageRecord) => store.update(record)),
      get: (channelId, messageId) => store.get(channelId, messageId),
      delete: dropping((channelId: string, ids: readonly string[]) => store.delete(channelId, ids)),
      list: (channelId, page) => store.list(channelId, page),
      listPinned: (channelId) => store.listPinned(channelId),
      addReaction: dropping((reaction: ReactionRecord) => store.addReaction(reaction)),
      removeReactions: dropping((channelId: string, messageId: string, emoji?: string, userId?: string) =>
        store.removeReactions(channelId, messageId, emoji, userId),
      ),
      listReactions: (channelId, messageId) => store.listReactions(channelId, messageId),
    };
    if (store.listPageReactions) {
      const listPage = store.listPageReactions.bind(store);
      watched.listPageReactions = (channelId, ids) => listPage(channelId, ids);
    }
    return watched;
  }

  async #fill(store: MessageStore, channelId: string): Promise<void> {
    const generation = this.#generation;
    const records = await store.list(channelId, { limit: RECENT_CAPACITY });
    const ids = records.map((record) => record.id);
    const reactions =
      records.length === 0
        ? []
        : store.listPageReactions
          ? await store.listPageReactions(channelId, ids)
          : await Promise.all(ids.map((id) => store.listReactions(channelId, id)));
    if (generation !== this.#generation) return; // a write landed meanwhile: this read may miss it
    this.#window = records.map((record, index) => ({ record, reactions: reactions[index] ?? [], text: undefined }));
    this.#complete = records.length < RECENT_CAPACITY;
    this.#textChars = 0;
  }

  /** A stored new message: on top of the window when it is the newest (ids grow with time), else the window goes. */
  #added(record: MessageRecord): void {
    const window = this.#window;
    if (window === undefined) return;
    const top = window[0];
    if (top !== undefined && compareSnowflakes(record.id, top.record.id) <= 0) {
      this.#drop();
      return;
    }
    this.#dropPages();
    // A copy of the top level: the caller keeps its record and may reassign its fields without a store write (an
    // edit does, then updates, which drops the window). Nested lists and objects are shared: the channel's
    // commands replace them, never change them in place. structuredClone cost about 7 µs per message create.
    window.unshift({ record: { ...record }, reactions: [], text: undefined });
    if (window.length > RECENT_CAPACITY) {
      const gone = window.pop();
      this.#textChars -= gone?.text?.length ?? 0;
      this.#complete = false;
    }
  }

  #drop(): void {
    this.#generation += 1;
    this.#window = undefined;
    this.#complete = false;
    this.#textChars = 0;
    this.#pages.clear();
  }

  #dropPages(): void {
    for (const text of this.#pages.values()) this.#textChars -= text.length;
    this.#pages.clear();
  }
}
