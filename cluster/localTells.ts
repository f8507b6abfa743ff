import { toAppError } from '../src/domain/errors.js';
import type { Logger } from '../src/domain/Logger.js';

/** Errors meaning a message was not run by its actor (so it may be sent again): not the actor's answer. */
export const NOT_RUN: ReadonlySet<string> = new Set(['moved', 'unavailable', 'overloaded']);
/** Re-routes of a local tell whose actor was evicted before running it (about 7 s with the backoff). */
const MAX_LOCAL_MOVES = 10;

/**
 * A cluster node's tell to an actor it hosts, run as an ask (`run`) so its outcome is known: a
 * message the actor did not run (evicted when its lease was lost, e.g. after a pause) is sent again
 * through the router (`resend`, to the owner under the then current view) after a short backoff, a
 * bounded number of times, like a remote send (RemoteRedelivery). `moves`: re-sends so far.
 */
export function tellHere(
  run: () => Promise<unknown>,
  resend: (moves: number) => void,
  moves: number,
  actor: string,
  log: Logger,
): void {
  run().catch((error: unknown) => {
    const appError = toAppError(error);
    if (appError.kind === 'internal') log.error('actor_tell_failed', { actor, err: error });
    if (!NOT_RUN.has(appError.kind)) return; // it ran: the error is the actor's answer
    if (appError.kind === 'overloaded' || moves >= MAX_LOCAL_MOVES) {
      log.error('tell_dropped', { actor, err: appError.message, moves });
      return;
    }
    const backoffMs = Math.min(1_000, 50 * 2 ** Math.min(moves, 5));
    setTimeout(() => {
      resend(moves + 1);
    }, backoffMs).unref();
  });
}
