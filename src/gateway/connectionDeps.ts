import type { ActorSystem } from '../../cluster/ActorSystem.js';
import type { GatewayOptions } from '../config/Config.js';
import type { Logger } from '../domain/Logger.js';
import type { CounterHandle } from '../domain/Metrics.js';
import type { SessionStarter } from './SessionStarter.js';

/** What a connection needs from its server. */
export interface ConnectionDeps {
  readonly system: ActorSystem;
  readonly options: GatewayOptions;
  readonly log: Logger;
  /** Authenticates, counts and hands over each Identify (Identify limits: SessionStarter). */
  readonly starter: SessionStarter;
  /** Removes the connection from the socket table once its socket has closed. */
  readonly release: (socketId: string) => void;
  /** Counts client frames (in the connection's one message listener: no second listener per socket). */
  readonly framesIn: CounterHandle;
}
