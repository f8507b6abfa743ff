import { ActorKind } from '../../actors/runtime/ActorKind.js';
import type { ActorSystem } from '../../cluster/ActorSystem.js';

/**
 * The ring key a voice channel is placed by: the voice room actor's key (`voice:<id>`, ActorKind.Voice), so
 * that actor runs on the node whose voice service hosts the channel. Its own namespace rather than the channel
 * actor's key (`channel:<id>`): a placement pin moves a busy voice channel without moving that actor, or the
 * reverse.
 */
export function voiceRingKey(channelId: string): string {
  return `${ActorKind.Voice}:${channelId}`;
}

/**
 * VOICE_SERVER_UPDATE's endpoint for a voice channel: the voice service of the node the ring places the
 * channel on, so every member of one channel reaches the same voice server whichever node holds their
 * gateway session. A node is named by the endpoint it published in membership; one that published none
 * (an older version) or is not in the view yet is replaced by this node's own service, which still
 * admits the client (every node verifies voice tokens with the shared secret).
 */
export function voiceEndpointResolver(
  system: Pick<ActorSystem, 'nodeId' | 'placeOf'>,
  ownEndpoint: string,
  endpointOfNode: (nodeId: string) => string | undefined = () => undefined,
): (channelId: string) => string {
  return (channelId) => {
    const owner = system.placeOf(voiceRingKey(channelId));
    return owner === system.nodeId ? ownEndpoint : (endpointOfNode(owner) ?? ownEndpoint);
  };
}
