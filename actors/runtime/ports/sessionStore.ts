/**
 * Durable gateway sessions (DESIGN §8.5): what a Session actor needs to come back on another node
 * after the one hosting it died, so a client resumes there from its last sequence number. Implemented
 * in src/store (in memory for embedded mode, Redis for cluster mode). Everything a session writes
 * lives for `ttlMs` after its last write (the resume window): a session nobody serves is forgotten.
 */

/** Where a session's socket is: the edge node holding it and the socket's id there. */
export interface SessionSocket {
  readonly nodeId: string;
  readonly socketId: string;
}

/** A session's state besides its frames, as its actor last saved it. */
export interface SessionRecord {
  readonly userId: string;
  readonly bot: boolean;
  /** Instance rights (decimal mask) of the caller at Identify. */
  readonly rights: string;
  /** Identify intents as a decimal string. */
  readonly intents: string;
  readonly shardId: number;
  /** 0 = unsharded. */
  readonly shardCount: number;
  /** Identify `capabilities` of a user client (0 for bots): the shape of its READY and GUILD_CREATEs. */
  readonly capabilities: number;
  /** Guilds the session is subscribed to. */
  readonly guildIds: readonly string[];
  /** Presence status (online, idle, ...). */
  readonly status: string;
  /** Highest sequence number handed out (dispatches, READY, RESUMED). */
  readonly seq: number;
  /** Lowest sequence a client may resume from (frames at or below it were evicted or never kept). */
  readonly floor: number;
  /** The socket the session pushes to; undefined while detached. */
  readonly socket: SessionSocket | undefined;
  readonly createdAtMs: number;
  /** When the socket went away; undefined while attached. */
  readonly detachedAtMs: number | undefined;
}

/**
 * One dispatch kept for replay: its sequence number, event name and payload (`d`) as JSON text. The frame's
 * text is built when it is sent; kept apart, one fan-out's payload is one string shared by every session's copy.
 */
export interface BufferedFrame {
  readonly seq: number;
  readonly event: string;
  readonly data: string;
}

/** What a session's last writes left behind: its record and its kept frames, oldest first. */
export interface StoredSession {
  readonly record: SessionRecord;
  readonly frames: readonly BufferedFrame[];
}

/** How far the session got, written with each batch of frames. */
export interface FrameProgress {
  /** The record's new `seq` and `floor`. */
  readonly seq: number;
  readonly floor: number;
  /** At most this many frames are kept; older ones go first. */
  readonly maxFrames: number;
  /** Everything of the session lives this long from now. */
  readonly ttlMs: number;
  /**
   * The record's `seq` as this writer last wrote or loaded it. When the stored seq differs, another
   * activation of the session wrote meanwhile (this one was deposed, e.g. paused past its lease): the
   * write is refused with WrongOwnerError, so its frames cannot take numbers the successor handed out.
   */
  readonly after?: number;
}

/**
 * The sessions port. Writes of one session are applied in call order; a write resolves once durable
 * (frames are written before they reach a socket, so a client never holds a sequence number the store
 * does not). `save` and `addFrames` are writes the commit fence guards (actors/runtime/fenceStores).
 */
export interface SessionStore {
  /**
   * True when a write is applied before its call returns and cannot fail (a store in this process,
   * which lives and dies with the sessions it holds): a session may then push its frames without
   * waiting for the promise. A store across a network, or fenced, never says so.
   */
  readonly writesApplyOnCall?: boolean;
  /**
   * Replaces the session's record; the record and the frames then live `ttlMs` from now. Refused with
   * WrongOwnerError when the stored seq is above the record's (a deposed activation's late write).
   */
  save(sessionId: string, record: SessionRecord, ttlMs: number): Promise<void>;
  /**
   * Appends frames (ascending seq, above every kept one), sets the record's seq and floor, trims to
   * `maxFrames`, and extends the session to `ttlMs` from now. `frames` may be empty (seq moved alone).
   */
  addFrames(sessionId: string, frames: readonly BufferedFrame[], progress: FrameProgress): Promise<void>;
  /** The session, or undefined when it was never saved, was deleted or expired. */
  load(sessionId: string): Promise<StoredSession | undefined>;
  /** Extends a live session to `ttlMs` from now (a session with a socket but no traffic). */
  touch(sessionId: string, ttlMs: number): Promise<void>;
  /** Forgets the session (it ended). */
  delete(sessionId: string): Promise<void>;
}
