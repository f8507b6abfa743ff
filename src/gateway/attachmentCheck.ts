import type { ActorSystem } from '../../cluster/ActorSystem.js';
import { toAppError } from '../domain/errors.js';

/** What the session said of a socket that heartbeats on it. */
export type Attachment = 'checked' | 'session gone';

/**
 * Asks the session whether `socketId` is still the socket it pushes to (the session asks the socket
 * to reconnect when it is not: a Session taken over by another node may have lost that request).
 * 'session gone': the session ended meanwhile, so the client must identify again. Failures to reach
 * the session say nothing (the next heartbeat asks again).
 */
export function checkAttachment(system: ActorSystem, sessionId: string, socketId: string): Promise<Attachment> {
  const socket = { nodeId: system.nodeId, socketId };
  return system.ask('session', sessionId, { command: { $case: 'heartbeat', heartbeat: { seq: '0', socket } } }).then(
    () => 'checked',
    (error: unknown) => (toAppError(error).kind === 'not_found' ? 'session gone' : 'checked'),
  );
}
