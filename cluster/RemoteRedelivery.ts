import type { AppError } from '../src/domain/errors.js';
import type { Logger } from '../src/domain/Logger.js';

/** One send to a node: calls `done` once the node took it (no error) or the call failed. */
export type Attempt = (done: (error: AppError | undefined) => void) => void;

/** What redelivery needs from the router. */
export interface RemoteRedeliveryDeps {
  /** True while `nodeId` is in the current view. */
  readonly isMember: (nodeId: string) => boolean;
  /** Fetches a fresh view (a node answered that it does not own the actor); failures are its own to log. */
  readonly refreshView?: () => void;
  readonly log: Logger;
}

/** How a send goes on once the node it was for cannot take it. */
export interface SendFallback {
  /** Sends it again through the router, to the owner under the then current view; `moves` counts re-routes. */
  readonly reroute: (moves: number) => void;
  /** Re-routes this send already went through because the receiver did not own the actor (0: none). */
  readonly moves?: number;
  /** It cannot be delivered: whoever expected it must be told (e.g. the sessions of a fan-out). */
  readonly abandon?: (reason: string) => void;
}

interface Held {
  /** Issue order across all nodes: held sends are re-sent in it. */
  readonly order: number;
  readonly attempt: Attempt;
  readonly fallback: SendFallback;
  /** What it carries, for the log. */
  readonly what: string;
}

interface Peer {
  /** Sends in flight. */
  outstanding: number;
  /** Sends the node did not take, and later ones held behind them, by `order`. */
  readonly held: Held[];
  /** When the first send was held (for the give-up bound). */
  heldSince: number;
  retry: ReturnType<typeof setTimeout> | undefined;
  attempts: number;
}

/** Held sends are retried this long at most; a node that is still in the view by then keeps failing. */
const HOLD_FOR_MS = 15_000;
/**
 * Re-routes of one send whose receiver did not own the actor. Views converge within a membership
 * refresh, so a few suffice; with the backoff below they span about 7 s before the send is abandoned.
 */
const MAX_MOVES = 10;
/** Backoff before re-routing a moved send: the views of sender and receiver need a moment to agree. */
const moveBackoffMs = (moves: number): number => Math.min(1_000, 50 * 2 ** Math.min(moves, 5));

/**
 * One-way sends (tells and fan-out batches) to a node that did not take them, because it died or
 * cannot be reached, are held rather than dropped: once the view no longer lists that node they are
 * routed again, to the new owners, which activate the actors (and Session actors) from storage
 * (DESIGN §8.5). While a node has held sends, newer sends to it wait behind them, so each actor still
 * gets its messages in the order they were sent (§8.4). A node still in the view is retried with
 * backoff. A node that answers it does not own the actor (the views disagree while a node joins or
 * leaves) gets nothing dropped either: the view is refreshed and the send re-routed after a short
 * backoff, a bounded number of times. A send that cannot be delivered within these bounds is
 * abandoned loudly, and its `abandon` tells whoever expected it (a fan-out invalidates its sessions,
 * which get op 9 rather than a silent gap). A send that failed after the node may have taken it can
 * arrive twice: at least once, since a duplicate dispatch is recoverable and a gap is not.
 */
export class RemoteRedelivery {
  readonly #peers = new Map<string, Peer>();
  #order = 0;

  constructor(private readonly deps: RemoteRedeliveryDeps) {}

  /** Sends held now, over all nodes (for health and tests). */
  get held(): number {
    let count = 0;
    for (const peer of this.#peers.values()) count += peer.held.length;
    return count;
  }

  /** Sends to `nodeId` through `attempt`, or holds it behind that node's held sends. */
  send(nodeId: string, attempt: Attempt, fallback: SendFallback | SendFallback['reroute'], what: string): void {
    const held: Held = {
      order: (this.#order += 1),
      attempt,
      fallback: typeof fallback === 'function' ? { reroute: fallback } : fallback,
      what,
    };
    const peer = this.#peers.get(nodeId);
    if (peer && peer.held.length > 0) {
      insertInOrder(peer.held, held);
      return;
    }
    this.#send(nodeId, held);
  }

  /** A new view: sends held for nodes that left it go to their new owners now. */
  viewChanged(): void {
    for (const nodeId of [...this.#peers.keys()]) this.#settle(nodeId);
  }

  #send(nodeId: string, held: Held): void {
    const peer = this.#peer(nodeId);
    peer.outstanding += 1;
    held.attempt((error) => {
      peer.outstanding -= 1;
      if (!error) peer.attempts = 0;
      else if (error.kind === 'unavailable' || error.kind === 'overloaded') {
        if (peer.held.length === 0) peer.heldSince = Date.now();
        insertInOrder(peer.held, held);
      } else if (error.kind === 'moved') {
        this.#moved(nodeId, held, error);
      } else {
        this.#abandon(nodeId, [held], error.message);
      }
      this.#settle(nodeId);
    });
  }

  /** The node does not own the actor under its view: refresh ours, wait a little, route again. */
  #moved(nodeId: string, held: Held, error: AppError): void {
    const moves = held.fallback.moves ?? 0;
    if (moves >= MAX_MOVES) {
      this.#abandon(nodeId, [held], `still moving after ${moves} re-routes: ${error.message}`);
      return;
    }
    this.deps.log.info('remote_send_moved', { node: nodeId, what: held.what, moves, err: error.message });
    this.deps.refreshView?.();
    setTimeout(() => {
      held.fallback.reroute(moves + 1);
    }, moveBackoffMs(moves)).unref();
  }

  /** Gives sends up for good: logged as an error, and whoever expected them is told. */
  #abandon(nodeId: string, sends: readonly Held[], reason: string): void {
    for (const send of sends) {
      this.deps.log.error('remote_send_abandoned', { node: nodeId, what: send.what, err: reason });
      send.fallback.abandon?.(reason);
    }
  }

  /** Re-routes, re-sends later, or forgets the peer, depending on its view membership and what is held. */
  #settle(nodeId: string): void {
    const peer = this.#peers.get(nodeId);
    if (!peer) return;
    if (peer.held.length === 0) {
      if (peer.outstanding === 0 && peer.retry === undefined) this.#peers.delete(nodeId);
      return;
    }
    if (!this.deps.isMember(nodeId)) {
      const held = peer.held.splice(0);
      this.deps.log.info('remote_sends_rerouted', { node: nodeId, sends: held.length });
      for (const send of held) send.fallback.reroute(send.fallback.moves ?? 0);
      this.#settle(nodeId);
      return;
    }
    if (Date.now() - peer.heldSince > HOLD_FOR_MS) {
      this.#abandon(nodeId, peer.held.splice(0), `node unreachable for ${HOLD_FOR_MS} ms`);
      return;
    }
    if (peer.retry !== undefined || peer.outstanding > 0) return;
    peer.attempts += 1;
    peer.retry = setTimeout(
      () => {
        peer.retry = undefined;
        // Still held and still a member: send them again, in order (a failure holds them again).
        const held = peer.held.splice(0);
        for (const send of held) this.#send(nodeId, send);
        this.#settle(nodeId);
      },
      Math.min(1_000, 50 * 2 ** Math.min(peer.attempts, 5)),
    );
    peer.retry.unref();
  }

  #peer(nodeId: string): Peer {
    let peer = this.#peers.get(nodeId);
    if (!peer) {
      peer = { outstanding: 0, held: [], heldSince: 0, retry: undefined, attempts: 0 };
      this.#peers.set(nodeId, peer);
    }
    return peer;
  }
}

function insertInOrder(held: Held[], send: Held): void {
  let at = held.length;
  while (at > 0 && (held[at - 1] as Held).order > send.order) at -= 1;
  held.splice(at, 0, send);
}
