import type { SocketAddress } from '../../proto/gen/chorus/v1/session.js';
import { toAppError } from '../../src/domain/errors.js';
import type { ActorContext } from '../runtime/ActorContext.js';
import type { SessionRecord, SessionStore, StoredSession } from '../runtime/ports/sessionStore.js';
import { SessionJournal } from './SessionJournal.js';
import { identityOf, sessionRecord, type Identity } from './sessionRecord.js';

/** op 7 Reconnect: sent before closing a socket 4000, so the client reconnects (to any node) and resumes. */
export const RECONNECT_FRAME = '{"op":7,"d":null,"s":null,"t":null}';
/** A close code after which clients resume. */
export const CLOSE_RESUMABLE = 4000;

/** Resume settings a DurableSession needs. */
export interface DurableSessionOptions {
  readonly resumeWindowMs: number;
  readonly resumeBufferSize: number;
}

/**
 * The state of one Session actor and its copy in the SessionStore: identity, socket, guilds, status,
 * the journal of numbered frames, the resume window and the keep-alive of a quiet attached session.
 * An attached session has no timer of its own: the edge holding its socket checks the attachment about once
 * per heartbeat interval (its one sweep of sockets), and that check extends the stored copy when due.
 * Frames reach the socket only once written (`deliver`), and the record is written after the frames
 * (`persist`), so the stored seq never runs ahead of the stored frames. Used inside turns only.
 */
export class DurableSession {
  identity: Identity | undefined;
  socket: SocketAddress | undefined;
  readonly guilds = new Set<string>();
  status = 'online';
  createdAt = 0;
  detachedAt: number | undefined;
  readonly journal: SessionJournal;
  #cancelExpiry: (() => void) | undefined;
  /** When the stored copy's ttl was last extended (created or touched). */
  #touchedAt = 0;

  constructor(
    private readonly ctx: ActorContext,
    private readonly store: SessionStore,
    private readonly options: DurableSessionOptions,
  ) {
    this.journal = new SessionJournal(store, ctx.key, options.resumeBufferSize, (error) => {
      this.#deposed(error);
    });
  }

  /** The record as it would be saved now. */
  record(identity: Identity): SessionRecord {
    return sessionRecord(identity, {
      guildIds: this.guilds,
      status: this.status,
      seq: this.journal.seq,
      floor: this.journal.floor,
      socket: this.socket,
      createdAtMs: this.createdAt,
      detachedAtMs: this.socket ? undefined : this.detachedAt,
    });
  }

  /** Writes the first record and the frames numbered so far (Identify). */
  async create(identity: Identity): Promise<void> {
    // The record claims READY only; the frames numbered after it (a bot's GUILD_CREATEs) follow it.
    const record = { ...this.record(identity), seq: 1, floor: 1 };
    await this.store.save(this.ctx.key, record, this.ttlMs());
    this.journal.noteSaved(1, 1);
    await this.journal.flush(this.ttlMs());
    this.#touchedAt = this.ctx.clock.now();
  }

  /** Writes pending frames, then the record. */
  async persist(): Promise<void> {
    const identity = this.identity;
    if (!identity) return;
    try {
      await this.journal.flush(this.ttlMs());
      await this.store.save(this.ctx.key, this.record(identity), this.ttlMs());
    } catch (error) {
      this.#deposed(error);
      throw error;
    }
  }

  /**
   * A write refused because this activation was deposed (its lease lapsed, or another activation wrote
   * the session since): what it holds in memory is stale, so it goes now, refusing what waits in its
   * mailbox; the senders route those again to the owner, which loads the session as stored.
   */
  #deposed(error: unknown): void {
    if (toAppError(error).kind !== 'moved') return;
    this.ctx.log.warn('session_deposed', { err: toAppError(error).message });
    this.ctx.evictSelf();
  }

  /** persist, logging a failure (the write is an improvement, not a promise made to the client). */
  async persistOrWarn(): Promise<void> {
    await this.persist().catch((error: unknown) => {
      this.ctx.log.warn('session_write_failed', { err: toAppError(error).message });
    });
  }

  /**
   * Writes the frames, then pushes them to the socket: never the other way round. A write the commit
   * fence refused (this activation was deposed: its lease lapsed during a pause) fails the turn with
   * WrongOwnerError, so the sender routes the event again to the session's new owner, which loads
   * the session from the store (without these frames) and journals it there: kept only in this
   * activation's memory, it would be lost with it.
   */
  deliver<T>(frames: string[], result: T): Promise<T> {
    return this.journal.flushThen(
      this.ttlMs(),
      () => {
        this.push(frames);
        return result;
      },
      (error) => {
        if (toAppError(error).kind === 'moved') {
          this.#deposed(error);
          throw error; // the sender re-routes the event to the owner
        }
        this.unwritten(error);
        return result;
      },
    );
  }

  /** True when `deliverNow` may be used: the store applies writes on call, so there is nothing to wait for. */
  get deliversNow(): boolean {
    return this.journal.flushesOnCall;
  }

  /** `deliver` without a wait (only when `deliversNow`): writes the frames, then pushes them, in one step. */
  deliverNow(frames: readonly string[]): void {
    this.journal.flushNow(this.ttlMs());
    this.push(frames);
  }

  /**
   * The store did not take the frames: they stay in the journal, but the socket must not have them.
   * The client is asked to reconnect; its Resume writes them again (or fails, and it identifies anew).
   */
  unwritten(error: unknown): void {
    this.ctx.log.warn('session_write_failed', { err: toAppError(error).message });
    if (!this.socket) return;
    this.closeSocket(this.socket);
    this.detach(this.ctx.clock.now());
  }

  push(frames: readonly string[]): void {
    const socket = this.socket;
    if (socket && frames.length > 0) this.ctx.pushFrames(socket.nodeId, socket.socketId, frames);
  }

  /** Attaches a socket (Identify, Resume): the window stops; the edge's checks keep the session stored. */
  attach(socket: SocketAddress | undefined): void {
    this.socket = socket;
    this.detachedAt = undefined;
    this.#cancelExpiry?.();
    this.#cancelExpiry = undefined;
  }

  /** Detached since `at`: the session ends (an `expire` to itself) once the resume window from then passed. */
  detach(at: number): void {
    this.socket = undefined;
    this.detachedAt = at;
    this.#cancelExpiry?.();
    const left = Math.max(0, at + this.options.resumeWindowMs - this.ctx.clock.now());
    this.#cancelExpiry = this.ctx.tellSelfAfter(left, {
      command: { $case: 'expire', expire: { detachedAt: String(at) } },
    });
  }

  /**
   * The edge node holding the socket left the cluster (it died or stopped): the socket went with it,
   * so the session detaches now and waits out the resume window like one whose client disconnected.
   * Should the node only have dropped out of the view for a moment, its client is asked to resume.
   */
  async edgeLeft(nodeId: string): Promise<void> {
    const socket = this.socket;
    if (socket?.nodeId !== nodeId) return;
    this.closeSocket(socket);
    this.detach(this.ctx.clock.now());
    await this.persistOrWarn(); // a node taking the session over must know the socket is gone
  }

  /** True when detached for the whole resume window. */
  get expired(): boolean {
    if (this.socket !== undefined || this.detachedAt === undefined) return false;
    return this.ctx.clock.now() - this.detachedAt >= this.options.resumeWindowMs;
  }

  /**
   * A client heartbeats on `socket` (the edge checks about once per heartbeat interval): when this session
   * pushes elsewhere (or nowhere), the request to reconnect that its socket should have had was lost (its
   * edge was unreachable when this session was taken over), so it is asked again; without this the client
   * would wait on a silent socket forever. When it is this session's socket, the check is its keep-alive.
   */
  reattachIfMoved(socket: SocketAddress): Promise<void> {
    if (this.socket?.socketId !== socket.socketId || this.socket.nodeId !== socket.nodeId) {
      this.closeSocket(socket);
      return Promise.resolve();
    }
    return this.ctx.clock.now() - this.#touchedAt >= this.#keepAliveMs() ? this.keepAlive() : Promise.resolve();
  }

  /** Extends the stored session while a socket is attached (also a socket-less `heartbeat`, as older nodes sent). */
  async keepAlive(): Promise<void> {
    if (!this.socket) return;
    this.#touchedAt = this.ctx.clock.now();
    await this.store.touch(this.ctx.key, this.ttlMs()).catch((error: unknown) => {
      this.ctx.log.warn('session_write_failed', { err: toAppError(error).message });
    });
  }

  /**
   * Takes over a stored session (this node now owns it). Its socket may have died with its edge node,
   * or be open on a surviving one: either way its client is asked to reconnect and resume here, and
   * until it does the session waits out the resume window like any detached one.
   */
  async restore(stored: StoredSession): Promise<Identity> {
    const { record } = stored;
    const identity = identityOf(record);
    this.identity = identity;
    for (const guildId of record.guildIds) this.guilds.add(guildId);
    this.status = record.status;
    this.createdAt = record.createdAtMs;
    this.journal.restore(stored);
    if (!record.socket) {
      this.detach(record.detachedAtMs ?? this.ctx.clock.now());
      return identity;
    }
    this.closeSocket(record.socket);
    this.detach(this.ctx.clock.now());
    await this.persistOrWarn();
    return identity;
  }

  /** Stops the timers (the session ends or stops). */
  stopTimers(): void {
    this.#cancelExpiry?.();
  }

  /** Forgets the session in the store (it ended); its ttl would otherwise. */
  async forget(): Promise<void> {
    await this.store.delete(this.ctx.key).catch((error: unknown) => {
      this.ctx.log.warn('session_delete_failed', { err: toAppError(error).message });
    });
  }

  /** Asks the client on `socket` to reconnect and resume, and closes it. */
  closeSocket(socket: SocketAddress): void {
    this.ctx.pushFrames(socket.nodeId, socket.socketId, [RECONNECT_FRAME], CLOSE_RESUMABLE);
  }

  /**
   * How long the store keeps the session from now: the resume window, counted from the detach if any.
   * An attached session is kept two windows: its keep-alive comes with the first edge check a quarter of a
   * window after the last (checks come under three heartbeat intervals apart: one, plus the most a zombie
   * socket lasts), so if its node dies right before one, the record still outlives a whole resume window, for
   * the client's Resume or a take-over, while three heartbeat intervals fit in three quarters of a window
   * (124 s in 135 s by default).
   */
  ttlMs(): number {
    if (this.socket) return 2 * this.options.resumeWindowMs;
    if (this.detachedAt === undefined) return this.options.resumeWindowMs;
    return Math.max(1, this.detachedAt + this.options.resumeWindowMs - this.ctx.clock.now());
  }

  /** How long after the last extension an edge check extends an attached session's stored copy again. */
  #keepAliveMs(): number {
    return Math.max(1, Math.floor(this.options.resumeWindowMs / 4));
  }
}
