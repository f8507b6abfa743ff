import type { Server } from 'node:http';
import type { ActorHost } from '../../actors/runtime/ActorHost.js';
import type { ActorSystem } from '../../cluster/ActorSystem.js';
import type { RunningVoiceServer } from '../voice/VoiceServer.js';

/** A running Chorus node, embedded or cluster. */
export interface RunningNode {
  readonly nodeId: string;
  readonly url: string;
  readonly gatewayUrl: string;
  readonly system: ActorSystem;
  readonly host: ActorHost;
  readonly server: Server;
  /** The voice service (wss/ws and UDP on one port); undefined when its derived port was taken. */
  readonly voice: RunningVoiceServer | undefined;
  /** Stops serving: closes sockets, passivates actors, leaves the cluster, closes storage. Idempotent. */
  close(): Promise<void>;
}
