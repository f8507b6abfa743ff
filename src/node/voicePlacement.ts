import { ActorKind } from '../../actors/runtime/ActorKind.js';
import type { ActorSystem } from '../../cluster/ActorSystem.js';

/**
 * VOICE_SERVER_UPDATE's endpoint for a voice channel: the voice service of the node the ring places the
 * channel's voice room actor on (`voice:<id>`, ActorKind.Voice; its own key rather than the channel actor's, so a
 * placement pin moves a busy voice channel without moving that actor, or the reverse), so every member of one channel reaches the same voice server whichever node holds their
 * gateway session. A node is named by the endpoint it published in membership; one that published none
 * (an older version) or is not in the view yet is replaced by this node's own service, which still
 * admits the client (every node verifies voice tokens with the shared secret).
 */
export function voiceEndpointResolver(
  system: Pick<ActorSystem, 'nodeId' | 'ownerOf'>,
  ownEndpoint: string,
  endpointOfNode: (nodeId: string) => string | undefined = () => undefined,
): (channelId: string) => string {
  return (channelId) => {
    const owner = system.ownerOf(ActorKind.Voice, channelId);
    return owner === system.nodeId ? ownEndpoint : (endpointOfNode(owner) ?? ownEndpoint);
  };
}
