import type { ActorSystem } from '../../cluster/ActorSystem.js';
import { toAppError } from '../domain/errors.js';
import type { Logger } from '../domain/Logger.js';
import type { ResumeFields } from './clientPayload.js';

/** How a Resume ended: resumed, to be tried again (op 7), or not resumable (op 9: identify anew). */
export type ResumeOutcome = 'resumed' | 'reconnect' | 'invalid';

/** The Resume ask on behalf of socket `socketId` of this node. */
export function askResume(
  system: ActorSystem,
  log: Logger,
  socketId: string,
  fields: ResumeFields,
): Promise<ResumeOutcome> {
  const socket = { nodeId: system.nodeId, socketId };
  const resume = { socket, token: fields.token, seq: String(fields.seq) };
  return system.ask('session', fields.sessionId, { command: { $case: 'resume', resume } }).then(
    () => 'resumed',
    (error: unknown) => {
      const { kind, message } = toAppError(error);
      if (kind !== 'not_found') log.warn('gateway_resume_failed', { socket: socketId, err: message });
      // Passing (its node died, its lease lives on, it moved): resume again (S3). Gone or too far behind: op 9.
      return kind === 'unavailable' || kind === 'overloaded' || kind === 'moved' ? 'reconnect' : 'invalid';
    },
  );
}

/** Hands a client op (presence, voice state, member requests...) to the session, which serves it. */
export function tellClientOp(system: ActorSystem, sessionId: string, op: number, d: unknown): void {
  system.tell('session', sessionId, { command: { $case: 'clientOp', clientOp: { op, dataJson: JSON.stringify(d) } } });
}

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

/**
 * A socket's attachment checks: at most one per heartbeat interval, and only for a ready session;
 * `gone` runs when the session turned out to have ended (the socket should send op 9).
 */
export class AttachmentCheck {
  #checkedMs: number;

  constructor(
    private readonly system: ActorSystem,
    private readonly socketId: string,
    private readonly intervalMs: number,
    startMs: number,
  ) {
    this.#checkedMs = startMs;
  }

  /** A heartbeat arrived at `now` on a socket whose ready session is `sessionId` (undefined: none yet). */
  heartbeat(now: number, sessionId: string | undefined, gone: (sessionId: string) => void): void {
    if (sessionId === undefined || now - this.#checkedMs < this.intervalMs) return;
    this.#checkedMs = now;
    void checkAttachment(this.system, sessionId, this.socketId).then((attachment) => {
      if (attachment === 'session gone') gone(sessionId);
    });
  }
}
