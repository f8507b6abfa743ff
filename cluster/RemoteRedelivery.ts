import type { AppError } from '../src/domain/errors.js';
import type { Logger } from '../src/domain/Logger.js';

/** One send to a node: calls `done` once the node took it (no error) or the call failed. */
export type Attempt = (done: (error: AppError | undefined) => void) => void;

/** What redelivery needs from the router. */
export interface RemoteRedeliveryDeps {
  /** True while `nodeId` is in the current view. */
  readonly isMember: (nodeId: string) => boolean;
  readonly log: Logger;
}

interface Held {
  /** Issue order across all nodes: held sends are re-sent in it. */
  readonly order: number;
  readonly attempt: Attempt;
  /** Sends it again through the router, to the owner under the then current view. */
  readonly reroute: () => void;
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
 * One-way sends (tells and fan-out batches) to a node that did not take them, because it died or
 * cannot be reached, are held rather than dropped: once the view no longer lists that node they are
 * routed again, to the new owners, which activate the actors (and Session actors) from storage
 * (DESIGN §8.5). While a node has held sends, newer sends to it wait behind them, so each actor still
 * gets its messages in the order they were sent (§8.4). A node still in the view is retried with
 * backoff. A send that failed after the node may have taken it can arrive twice: at least once,
 * since a duplicate dispatch is recoverable and a gap is not.
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
  send(nodeId: string, attempt: Attempt, reroute: () => void, what: string): void {
    const held: Held = { order: (this.#order += 1), attempt, reroute, what };
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
      } else {
        this.deps.log.warn('remote_send_dropped', { node: nodeId, what: held.what, err: error.message });
      }
      this.#settle(nodeId);
    });
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
      for (const send of held) send.reroute();
      this.#settle(nodeId);
      return;
    }
    if (Date.now() - peer.heldSince > HOLD_FOR_MS) {
      const held = peer.held.splice(0);
      this.deps.log.warn('remote_send_dropped', { node: nodeId, sends: held.length, err: 'node unreachable' });
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
