/**
 * A user's presence across their gateway sessions. Each session sets its own (Identify `presence`, op 3);
 * others see one aggregate: the most available status of the visible sessions (online > dnd > idle: any
 * active session beats an idle one, as the research notes read Discord), `offline` when every session is
 * invisible or none is left. `client_status` holds the best status per platform of the visible sessions.
 */

/** A status a session may set (offline is receive-only; `unknown` is read as online by the session). */
export type SessionStatus = 'online' | 'idle' | 'dnd' | 'invisible';
/** A status others see. */
export type PublicStatus = 'online' | 'idle' | 'dnd' | 'offline';
/** client_status keys Chorus derives from Identify properties. */
export type Platform = 'desktop' | 'mobile' | 'web';

/** One session's presence. */
export interface SessionPresenceState {
  readonly status: SessionStatus;
  /** Validated activity objects. */
  readonly activities: readonly unknown[];
  readonly platform: Platform;
}

/** What others see of the user. */
export interface AggregatePresence {
  readonly status: PublicStatus;
  readonly activities: readonly unknown[];
  readonly client_status: Partial<Record<Platform, PublicStatus>>;
}

/** Higher is more available. */
const RANK: Record<SessionStatus, number> = { online: 3, dnd: 2, idle: 1, invisible: 0 };
/** Activities shown at most (the contract's cap per presence). */
const MAX_ACTIVITIES = 16;

export const OFFLINE: AggregatePresence = { status: 'offline', activities: [], client_status: {} };

const SESSION_STATUSES = new Set<string>(['online', 'idle', 'dnd', 'invisible']);

/** A session status from client text: `unknown` and missing mean online; offline means invisible; else undefined. */
export function sessionStatusOf(status: string): SessionStatus | undefined {
  if (status === '' || status === 'unknown') return 'online';
  if (status === 'offline') return 'invisible';
  return SESSION_STATUSES.has(status) ? (status as SessionStatus) : undefined;
}

/** The aggregate others see of these sessions' presences. */
export function aggregatePresence(sessions: Iterable<SessionPresenceState>): AggregatePresence {
  let best: SessionStatus = 'invisible';
  const clientStatus: Partial<Record<Platform, PublicStatus>> = {};
  const visible: SessionPresenceState[] = [];
  for (const session of sessions) {
    if (session.status === 'invisible') continue;
    visible.push(session);
    if (RANK[session.status] > RANK[best]) best = session.status;
    const current = clientStatus[session.platform];
    if (current === undefined || RANK[session.status] > RANK[current as SessionStatus]) {
      clientStatus[session.platform] = session.status;
    }
  }
  if (best === 'invisible') return OFFLINE;
  // The winning sessions' activities first, then the rest; one of each (name, type).
  visible.sort((a, b) => RANK[b.status] - RANK[a.status]);
  const seen = new Set<string>();
  const activities: unknown[] = [];
  for (const session of visible) {
    for (const activity of session.activities) {
      const key = JSON.stringify([(activity as { name?: unknown }).name, (activity as { type?: unknown }).type]);
      if (seen.has(key) || activities.length >= MAX_ACTIVITIES) continue;
      seen.add(key);
      activities.push(activity);
    }
  }
  return { status: best, activities, client_status: clientStatus };
}

/** True when both aggregates show the same to others. */
export function samePresence(a: AggregatePresence, b: AggregatePresence): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The per-session presences of one user and the aggregate last announced to their guilds. */
export class UserPresences {
  readonly #sessions = new Map<string, SessionPresenceState>();
  #announced: AggregatePresence = OFFLINE;

  /** Sets one session's presence; the new aggregate when it changed what others see, else undefined. */
  set(sessionId: string, presence: SessionPresenceState): AggregatePresence | undefined {
    this.#sessions.set(sessionId, presence);
    return this.#changed();
  }

  /** Forgets an ended session; the new aggregate when that changed what others see. */
  remove(sessionId: string): AggregatePresence | undefined {
    if (!this.#sessions.delete(sessionId)) return undefined;
    return this.#changed();
  }

  /** Forgets a session without changing what others were told. */
  forget(sessionId: string): void {
    this.#sessions.delete(sessionId);
  }

  /** Every session gone: offline, announced again even if it was already (guilds drop it only once). */
  offline(): AggregatePresence {
    this.#sessions.clear();
    this.#announced = OFFLINE;
    return OFFLINE;
  }

  /** What others see now. */
  get current(): AggregatePresence {
    return this.#announced;
  }

  /** Each session's own presence, by session id. */
  get sessions(): ReadonlyMap<string, SessionPresenceState> {
    return this.#sessions;
  }

  #changed(): AggregatePresence | undefined {
    const next = aggregatePresence(this.#sessions.values());
    if (samePresence(next, this.#announced)) return undefined;
    this.#announced = next;
    return next;
  }
}
