import type { ChannelReply } from '../../proto/gen/chorus/v1/channel.js';
import type { Caller } from '../../proto/gen/chorus/v1/common.js';
import type { BlobRemover } from '../../src/domain/BlobStore.js';
import { UnknownEntityError } from '../../src/domain/errors.js';
import { compareSnowflakes, newerSnowflake, snowflakeTimestampMs } from '../../src/domain/snowflake.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import type { ChannelRecord, MessageRecord, ReactionRecord } from '../runtime/ports/records.js';
import type { ApplicationCommandStore } from '../runtime/ports/applicationCommandStore.js';
import type { ApplicationStore, ChannelStore, MessageStore, UserStore, WebhookStore } from '../runtime/ports/stores.js';
import { AccessCache } from './AccessCache.js';
import { AuthorSnapshots } from './AuthorSnapshots.js';
import { DmBlockCache } from './dmBlocks.js';
import { requireCaller, viewAccess, type Access } from './channelAccess.js';
import { recipientUsers } from './channelJson.js';
import { emit } from './channelEvents.js';
import type { GatedEvent } from '../../src/domain/intents.js';
import { DispatchOutbox, redispatchUnflushed } from './dispatchOutbox.js';
import { authorOf, messageJson } from './messageJson.js';
import { NONCE_WINDOW_MS, NonceCache } from './NonceCache.js';
import { KnownUsers, publicUserOf, type PublicUser } from './publicUser.js';
import { aggregateReactions } from './reactions.js';
import { InteractionRegistry } from './InteractionRegistry.js';
import { RecentMessages } from './RecentMessages.js';
import { PendingAuthorReads } from './readStateTells.js';

/** User snapshots older than this are re-read from the UserStore before use (names change). */
const USER_SNAPSHOT_TTL_MS = 60_000;

/** The storage ports a channel uses; users are only read, for snapshots of authors and mentions. */
export interface ChannelStores {
  readonly channels: ChannelStore;
  readonly messages: MessageStore;
  readonly users: UserStore;
  readonly webhooks: WebhookStore;
  /** Read when a user invokes an interaction here: the application, its bot and its commands. */
  readonly applications: ApplicationStore;
  readonly applicationCommands: ApplicationCommandStore;
}

/**
 * Delay before cached last_message_id / last_pin_timestamp are written through: one write per burst. In a cluster
 * each write also costs a commit-fence check; at 250 ms a channel taking 5 messages a second paid 0.78 writes a
 * message. Nothing is lost by waiting: activation recomputes last_message_id from the newest stored message.
 */
const FLUSH_DELAY_MS = 1_000;

/** A reply carrying a JSON document. */
export function jsonReply(json: string): ChannelReply {
  return { reply: { $case: 'json', json: { json } } };
}

/** A reply with no content (HTTP 204). */
export const EMPTY_REPLY: ChannelReply = { reply: { $case: 'empty', empty: {} } };

/**
 * The state of one active channel and the helpers its command handlers share: the record, caches
 * (authors, known users, nonces, pin count, slowmode), access checks, rendering and event emission.
 * Only the ChannelActor's turns touch it.
 */
export class ChannelScope {
  readonly users = new KnownUsers();
  readonly authors = new AuthorSnapshots();
  readonly nonces = new NonceCache();
  /** The Guild's permission snapshots per user (dropped with the scope, e.g. when the channel is deleted). */
  readonly accessCache = new AccessCache();
  /** A 1:1 DM's block between its recipients (dropped by invalidate_access like the snapshots). */
  readonly dmBlocks = new DmBlockCache();
  /** Messages an earlier activation stored and maybe never dispatched (see dispatchOutbox). */
  readonly outbox = new DispatchOutbox();
  /** The live interactions of this channel (in memory only; see InteractionRegistry). */
  readonly interactions = new InteractionRegistry();
  /** The newest messages as stored, for the default page (kept exact by watching this scope's message writes). */
  readonly recent = new RecentMessages();
  /** Authors' own messages their read states have not been told yet (told with the next flush). */
  readonly authorReads = new PendingAuthorReads();
  readonly #messages: MessageStore;
  /** user id → when their last message was sent (slowmode). */
  readonly lastSentMs = new Map<string, number>();
  /** Pinned messages; undefined until counted. */
  pinCount: number | undefined;
  #dirty = false;
  #flushPending = false;
  /** The last_message_id stored when this activation loaded the record, then the one it last wrote. */
  #flushedLastId: string | null;

  constructor(
    readonly ctx: ActorContext,
    readonly stores: ChannelStores,
    public channel: ChannelRecord,
    /** Where the bytes of this channel's attachments go when no message references them any more. */
    readonly blobs: BlobRemover,
  ) {
    this.#messages = this.recent.watch(stores.messages);
    this.#flushedLastId = channel.last_message_id;
    if (channel.guild_id === null) for (const user of recipientUsers(channel, (id) => ({ id }))) this.remember(user);
  }

  /** The messages store; its writes keep `recent` exact. */
  get messages(): MessageStore {
    return this.#messages;
  }

  /** The caller's access, requiring VIEW_CHANNEL (see viewAccess). */
  access(caller: Caller | undefined): Promise<Access> {
    return viewAccess(this.ctx, this.channel, requireCaller(caller).userId, this.accessCache);
  }

  /** Remembers a user snapshot that has more than an id. */
  remember(user: PublicUser): void {
    if (Object.keys(user).length > 1) this.users.remember(user, this.ctx.clock.now());
  }

  /**
   * Makes sure recent snapshots of these users are known, reading missing or old ones from the
   * UserStore (read-only, as the User actor reads other users; a Channel never awaits a User actor).
   */
  async loadUsers(ids: Iterable<string>): Promise<void> {
    const since = this.ctx.clock.now() - USER_SNAPSHOT_TTL_MS;
    const wanted = [...new Set(ids)].filter((id) => !this.users.knowsSince(id, since));
    if (wanted.length === 0) return;
    const records = await Promise.all(wanted.map((id) => this.stores.users.get(id)));
    for (const record of records) {
      const user = record === undefined ? undefined : publicUserOf(record);
      if (user) this.remember(user);
    }
  }

  /** A message of this channel; 404 10008 when it does not exist here. */
  async message(messageId: string): Promise<MessageRecord> {
    const record = await this.messages.get(this.channel.id, messageId);
    if (!record) throw new UnknownEntityError('message');
    return record;
  }

  /** Sends an event to whoever may see this channel (see channelEvents.emit). */
  emit(event: GatedEvent, dataJson: string): void {
    emit(this.ctx, this.channel, event, dataJson);
  }

  /**
   * Messages as `viewerId` sees them: with reactions (`me` relative to the viewer) and the replied-to
   * message of replies, loaded in parallel (one read per message, so Cassandra fans them out). `known`:
   * the records' reactions when the caller has them.
   */
  async render(
    records: readonly MessageRecord[],
    viewerId: string,
    known?: readonly (readonly ReactionRecord[])[],
  ): Promise<Record<string, unknown>[]> {
    const byId = new Map(records.map((record) => [record.id, record]));
    const [reactions, referenced] = await Promise.all([
      known ?? this.#reactionsOf(records),
      // Most messages reply to nothing: no promise for those.
      records.some((record) => record.message_reference?.message_id !== undefined)
        ? Promise.all(records.map((record) => this.#referenced(record, byId)))
        : records.map(() => undefined),
    ]);
    const mentioned = [...records, ...referenced].flatMap((record) => record?.mention_ids ?? []);
    await this.loadUsers(mentioned);
    const userOf = (id: string) => this.users.get(id);
    // A page's messages are mostly by a few authors: each stored snapshot text is parsed once.
    const authors = new Map<string, PublicUser>();
    return records.map((record, index) => {
      let author = authors.get(record.author_json);
      if (!author) {
        author = authorOf(record);
        authors.set(record.author_json, author);
        this.remember(author);
      }
      return messageJson(record, {
        userOf,
        author,
        reactions: aggregateReactions(reactions[index] ?? [], viewerId),
        referenced: referenced[index],
      });
    });
  }

  /** The reactions of each record: one read for the page where the store can, else one per message. */
  #reactionsOf(records: readonly MessageRecord[]): Promise<ReactionRecord[][]> {
    const { messages } = this;
    if (records.length === 0) return Promise.resolve([]);
    if (messages.listPageReactions) {
      return messages.listPageReactions(
        this.channel.id,
        records.map((record) => record.id),
      );
    }
    return Promise.all(records.map((record) => messages.listReactions(this.channel.id, record.id)));
  }

  async #referenced(
    record: MessageRecord,
    page: ReadonlyMap<string, MessageRecord>,
  ): Promise<MessageRecord | null | undefined> {
    const id = record.message_reference?.message_id;
    if (id === undefined) return undefined;
    return page.get(id) ?? (await this.messages.get(this.channel.id, id)) ?? null;
  }

  /** Notes a new newest message; written through to the ChannelStore shortly (see flush). */
  noteLastMessage(messageId: string): void {
    const current = this.channel.last_message_id;
    if (current === null || compareSnowflakes(messageId, current) > 0) {
      this.channel.last_message_id = messageId;
      this.#markDirty();
    }
  }

  /** Notes a pin change; written through shortly. */
  notePin(timestamp: string | null): void {
    this.channel.last_pin_timestamp = timestamp;
    this.#markDirty();
  }

  /** True when cached fields wait to be written. */
  get dirty(): boolean {
    return this.#dirty;
  }

  /** Marks the cached fields for writing (e.g. after another writer stored stale values). */
  markDirty(): void {
    this.#markDirty();
  }

  /** The author's read state moves to `record` with the next flush (see PendingAuthorReads). */
  noteAuthorRead(record: MessageRecord): void {
    this.authorReads.note(record);
    this.#scheduleFlush();
  }

  #markDirty(): void {
    this.#dirty = true;
    this.#scheduleFlush();
  }

  #scheduleFlush(): void {
    if (this.#flushPending) return;
    this.#flushPending = true;
    this.ctx.tellSelfAfter(FLUSH_DELAY_MS, { command: { $case: 'flush', flush: {} } });
  }

  /**
   * Writes the fields this actor owns (last_message_id, last_pin_timestamp) beside the stored record,
   * without reading it (ChannelStore.saveOwnerFields: in Cassandra a plain UPDATE; the read and rewrite
   * of the record cost 0.7 reads and writes per message at 50 msg/s). A crash before a flush loses
   * nothing: activation recomputes last_message_id from the newest stored message, and dispatches again
   * the messages newer than the stored one. So a timer flush writes the id the previous one saw (the
   * outbox's settle; never older than what was written before) and flushes again until the two agree;
   * the `final` flush (deactivation) writes the newest. A deleted channel is told by its owner
   * (channelChanged), and its store keeps it deleted.
   */
  async flush(final = false): Promise<void> {
    this.#flushPending = false;
    this.authorReads.tellAll(this);
    if (!this.#dirty) return;
    const newest = this.channel.last_message_id;
    const settled = newerSnowflake(this.#flushedLastId, final ? newest : this.outbox.settle(newest));
    await this.stores.channels.saveOwnerFields(this.channel, {
      last_message_id: settled,
      last_pin_timestamp: this.channel.last_pin_timestamp,
    });
    this.#flushedLastId = settled;
    this.#dirty = false;
    if (settled !== newest) this.#markDirty(); // one more flush writes the newest id
  }

  /**
   * Brings last_message_id up to the newest stored message (it may not have been flushed), and
   * refills the nonce cache from the newest messages: a send retried after this channel's previous
   * owner died (it stored the message but never replied) must return that message, not a copy. The
   * same read fills the outbox, and the messages the previous activation never flushed are
   * dispatched again (it may have died before dispatching them; see dispatchOutbox).
   */
  async reconcileLastMessage(): Promise<void> {
    const recent = await this.messages.list(this.channel.id, { limit: 100 });
    const now = this.ctx.clock.now();
    const unflushed = this.outbox.inherit(recent, this.channel.last_message_id, now);
    const [newest] = recent;
    if (newest !== undefined) this.noteLastMessage(newest.id);
    for (const record of [...recent].reverse()) {
      // Oldest first: the cache prunes in insertion order.
      if (record.nonce === null) continue;
      const at = snowflakeTimestampMs(record.id);
      if (now - at <= NONCE_WINDOW_MS) this.nonces.remember(record.author_id, record.nonce, record.id, at);
    }
    await redispatchUnflushed(this, unflushed);
  }
}
