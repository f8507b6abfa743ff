import type { ActorHost } from '../actors/runtime/ActorHost.js';
import type { ActorMessenger } from '../actors/runtime/ActorContext.js';
import { ActorKind } from '../actors/runtime/ActorKind.js';

/**
 * Tells this node's actors about the nodes that left the view (`before` but not `after`): the sockets
 * those nodes held are gone. The local Session actors hear it (one whose socket was there starts its
 * resume window), and so do the local Guild actors, which pass it on to their online members' sessions
 * wherever they live: a session whose actor died with that node is re-activated by it. Otherwise such a
 * user would stay online until something else woke the session.
 */
export function tellNodesLeft(
  host: Pick<ActorHost, 'activeKeys'> | undefined,
  messenger: Pick<ActorMessenger, 'tell'>,
  before: readonly string[],
  after: readonly string[],
): void {
  if (!host) return;
  for (const nodeId of before.filter((member) => !after.includes(member))) {
    const nodeLeft = { nodeId };
    for (const key of host.activeKeys(ActorKind.Session)) {
      messenger.tell(ActorKind.Session, key, { command: { $case: 'nodeLeft', nodeLeft } });
    }
    for (const key of host.activeKeys(ActorKind.Guild)) {
      messenger.tell(ActorKind.Guild, key, { command: { $case: 'nodeLeft', nodeLeft } });
    }
  }
}
