import { ActorKind } from '../../actors/runtime/ActorKind.js';
import type { ActorSystem } from '../../cluster/ActorSystem.js';
import type { RunningVoiceServer } from '../voice/VoiceServer.js';

/** Subscribes a listener to one source of ring changes (membership, pins); returns the unsubscribe. */
type RingChangeSource = (listener: () => void) => () => void;

/**
 * After each ring change, the rooms this node's voice service hosts that the ring now places on another node (a
 * node joined, a placement pin) are handed over: their Guild is told (voice_room_moved), which tells the room's
 * new node its members and sends each of them a VOICE_SERVER_UPDATE naming it. Subscribe after followMembership:
 * listeners run in subscription order, so the new ring is installed by then. A room on a node that left is
 * re-homed by the Guild instead (recheckVoiceRooms on node_left): no node hosting it is left to notice. Returns the
 * unsubscribe.
 */
export function followVoiceRoomMoves(
  system: Pick<ActorSystem, 'nodeId' | 'ownerOf' | 'tell'>,
  voice: Pick<RunningVoiceServer, 'handOverRooms'>,
  sources: readonly RingChangeSource[],
): () => void {
  const check = (): void => {
    const placedHere = (channelId: string): boolean => system.ownerOf(ActorKind.Voice, channelId) === system.nodeId;
    for (const { guildId, channelId } of voice.handOverRooms(placedHere)) {
      system.tell('guild', guildId, { command: { $case: 'voiceRoomMoved', voiceRoomMoved: { channelId } } });
    }
  };
  const unsubscribes = sources.map((subscribe) => subscribe(check));
  return () => {
    for (const unsubscribe of unsubscribes) unsubscribe();
  };
}
