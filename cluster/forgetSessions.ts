import type { ActorMessenger } from '../actors/runtime/ActorContext.js';
import { ActorKind } from '../actors/runtime/ActorKind.js';

/**
 * Tells the actor that fanned out (`source`, `kind:key`) to drop the subscriptions of sessions that are
 * gone (SessionDelivery found no record of them): a Guild unsubscribes them, a User detaches them.
 */
export function forgetSessions(
  messenger: Pick<ActorMessenger, 'tell'>,
  source: string,
  sessionIds: readonly string[],
): void {
  const colon = source.indexOf(':');
  const kind = source.slice(0, colon);
  const key = source.slice(colon + 1);
  for (const sessionId of sessionIds) {
    if (kind === ActorKind.Guild) {
      messenger.tell(ActorKind.Guild, key, { command: { $case: 'unsubscribe', unsubscribe: { sessionId } } });
    } else if (kind === ActorKind.User) {
      const detachSession = { sessionId, shardId: 0, intents: '0' };
      messenger.tell(ActorKind.User, key, { command: { $case: 'detachSession', detachSession } });
    }
  }
}
