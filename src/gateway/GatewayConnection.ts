import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import { deflateSync } from 'node:zlib';
import { WebSocket, type RawData } from 'ws';
import { decodeClientPayload, isRefusal, parseIdentify, parseResume, type ClientPayload } from './clientPayload.js';
import { askResume, AttachmentCheck, tellClientOp } from './sessionAsks.js';
import type { ConnectionQuery } from './connectionQuery.js';
import { encodeEtf } from './etf/etfEncode.js';
import {
  BACKPRESSURE_BYTES,
  CLOSE_REASON,
  CloseCode,
  GatewayOp,
  HEARTBEAT_ACK_FRAME,
  helloFrame,
  IGNORED_OPS,
  invalidSessionFrame,
  PAYLOAD_LIMIT,
  PAYLOAD_WINDOW_MS,
  RECONNECT_FRAME,
  RESUMABLE_CLOSE_CODES,
  SESSION_OPS,
} from './gatewayProtocol.js';
import { PayloadBudget } from './PayloadBudget.js';
import { listen, type SocketHandler } from './socketListeners.js';
import type { ConnectionDeps } from './connectionDeps.js';
import { createTransportEncoder, type TransportEncoder } from './transportEncoder.js';

/** A socket missing heartbeats for this many intervals is a zombie and is closed 4009. */
const HEARTBEAT_TIMEOUT_INTERVALS = 1.5;
/** A socket that does not finish the close handshake within this is cut. */
const CLOSE_GRACE_MS = 2_000;
/** With Identify `compress: true`, frames from this size on go out zlib-compressed. */
const PAYLOAD_COMPRESS_FROM = 1_024;
const ACK = [HEARTBEAT_ACK_FRAME] as const;
const SESSION_ID = /^[0-9a-f]{32}$/;

type Phase = 'connected' | 'identifying' | 'resuming' | 'ready';

/** Where a transport encoder's output goes (the socket may have closed while zlib worked); none for 'none'. */
function sendIfOpen(ws: WebSocket, message: Buffer): void {
  if (ws.readyState === WebSocket.OPEN) ws.send(message);
}

/**
 * One gateway socket: Hello, heartbeats (answered here, cheaply), payload limits and close codes,
 * compression, and the hand-off of Identify / Resume / client ops to the Session actor. Frames the
 * session pushes arrive through `push`. The socket carries no session state of its own beyond the
 * session id: sequence numbers and the resume buffer live in the Session actor.
 */
export class GatewayConnection implements SocketHandler {
  #phase: Phase = 'connected';
  #closing = false;
  #sessionId: string | undefined;
  /** When Hello went out: Identify or Resume must follow within `identifyTimeoutMs` of it. */
  readonly #helloMs = Date.now();
  #lastHeartbeatMs = this.#helloMs;
  readonly #attachment: AttachmentCheck;
  readonly #budget = new PayloadBudget(PAYLOAD_LIMIT, PAYLOAD_WINDOW_MS);
  readonly #encoder: TransportEncoder | undefined = undefined;
  #payloadCompress = false;
  #serverCloseCode = 0;
  #killTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly ws: WebSocket,
    /** The connection under `ws`: corked while several frames are written, so they leave in one system call. */
    private readonly socket: Duplex,
    readonly socketId: string,
    private readonly query: ConnectionQuery,
    private readonly deps: ConnectionDeps,
    private readonly gatewayUrl = '', // ws(s)://host the client used: READY.resume_gateway_url ('': the node's)
  ) {
    this.#attachment = new AttachmentCheck(deps.system, socketId, deps.options.heartbeatIntervalMs, this.#helloMs);
    if (query.compress !== 'none')
      this.#encoder = createTransportEncoder(query.compress, sendIfOpen.bind(undefined, ws));
    listen(ws, this);
    this.#send([helloFrame(deps.options.heartbeatIntervalMs)]);
  }

  /** A socket error (socket listener). */
  failed(error: Error): void {
    this.deps.log.warn('gateway_socket_error', { socket: this.socketId, err: error.message });
  }

  /** Frames from the Session actor; closes the socket after them when `closeCode` > 0. */
  push(frames: readonly string[], closeCode: number): void {
    this.#send(frames);
    if (closeCode > 0) this.close(closeCode);
  }

  /** Closes with a gateway close code (after any compressed frames still in flight). */
  close(code: number): void {
    if (this.#closing) return;
    this.#closing = true;
    this.#serverCloseCode = code;
    const finish = (): void => {
      if (this.ws.readyState === WebSocket.OPEN) this.ws.close(code, CLOSE_REASON[code] ?? '');
    };
    if (this.#encoder) this.#encoder.afterPending(finish);
    else finish();
    this.#killTimer = setTimeout(() => {
      this.ws.terminate();
    }, CLOSE_GRACE_MS).unref();
  }

  /** Closes the socket 4009 when it has not sent a heartbeat in time (called by the server's sweep). */
  checkHeartbeat(nowMs: number): void {
    const deadline = this.deps.options.heartbeatIntervalMs * HEARTBEAT_TIMEOUT_INTERVALS;
    if (!this.#closing && nowMs - this.#lastHeartbeatMs > deadline) this.close(CloseCode.SessionTimedOut);
  }

  /** Closes 4003 a socket still without a session `identifyTimeoutMs` after Hello, heartbeats or not (server's sweep). */
  checkIdentified(nowMs: number): void {
    const late = nowMs - this.#helloMs > this.deps.options.identifyTimeoutMs;
    if (!this.#closing && this.#sessionId === undefined && late) this.close(CloseCode.NotAuthenticated);
  }

  /** Node shutdown: tell the client to reconnect (and resume elsewhere), then close 4000. */
  shutdown(): void {
    this.#send([RECONNECT_FRAME]);
    this.close(CloseCode.UnknownError);
  }

  #send(frames: readonly string[]): void {
    if (this.#closing || this.ws.readyState !== WebSocket.OPEN) return;
    if (this.ws.bufferedAmount > BACKPRESSURE_BYTES) {
      this.#moveSlowClient();
      return;
    }
    const corked = frames.length > 1;
    if (corked) this.socket.cork();
    try {
      for (const json of frames) this.#sendOne(json);
    } finally {
      if (corked) this.socket.uncork();
    }
  }

  /** A frame as this socket takes it: as a binary term for `encoding=etf`; transport- or payload-compressed. */
  #sendOne(json: string): void {
    const frame = this.query.encoding === 'etf' ? encodeEtf(JSON.parse(json)) : json;
    if (this.#encoder) this.#encoder.write(frame);
    else if (this.#payloadCompress && frame.length >= PAYLOAD_COMPRESS_FROM) this.ws.send(deflateSync(frame));
    else this.ws.send(frame);
  }

  /**
   * The client reads slower than its events arrive: rather than drop frames or buffer without bound,
   * ask it to reconnect; its Resume replays what it missed from the Session actor's buffer.
   */
  #moveSlowClient(): void {
    this.deps.log.warn('gateway_backpressure', { socket: this.socketId, buffered: this.ws.bufferedAmount });
    this.#sendOne(RECONNECT_FRAME); // small: never payload-compressed
    this.close(CloseCode.UnknownError);
  }

  /** A client frame (socket listener). */
  received(data: RawData): void {
    this.deps.framesIn.inc();
    if (this.#closing) return;
    const now = Date.now();
    if (!this.#budget.take(now)) {
      this.close(CloseCode.RateLimited);
      return;
    }
    const payload = decodeClientPayload(data, this.query.encoding);
    if (isRefusal(payload)) {
      this.close(payload.closeCode);
      return;
    }
    switch (payload.op) {
      case GatewayOp.Heartbeat:
        this.#lastHeartbeatMs = now;
        this.#send(ACK);
        this.#attachment.heartbeat(now, this.#phase === 'ready' ? this.#sessionId : undefined, (id) => {
          this.#forgetSession(id, [invalidSessionFrame(false)]);
        });
        return;
      case GatewayOp.Identify:
        this.#identify(payload.d);
        return;
      case GatewayOp.Resume:
        this.#resume(payload.d);
        return;
      default:
        this.#clientOp(payload);
    }
  }

  /** The socket has no session any more (a Resume failed, the session ended unseen); `frames` tell the client. */
  #forgetSession(sessionId: string, frames: readonly string[] = []): void {
    if (this.#sessionId !== sessionId) return;
    this.#sessionId = undefined;
    this.#phase = 'connected';
    this.#send(frames);
  }

  #identify(d: unknown): void {
    if (this.#sessionId !== undefined) {
      this.close(CloseCode.AlreadyAuthenticated);
      return;
    }
    const fields = parseIdentify(d);
    if (isRefusal(fields)) {
      this.close(fields.closeCode);
      return;
    }
    if (fields.token === '') {
      this.close(CloseCode.AuthenticationFailed);
      return;
    }
    // 32 hex digits, as Discord's; randomUUID draws from a cached pool (randomBytes makes a system call each time).
    const sessionId = randomUUID().replaceAll('-', '');
    this.#sessionId = sessionId;
    this.#phase = 'identifying';
    this.#payloadCompress = fields.compress && !this.#encoder;
    const { socketId, gatewayUrl } = this;
    const request = { sessionId, socketId, version: this.query.version, gatewayUrl, fields };
    void this.deps.starter
      .start(request, () => !this.#closing)
      .then((outcome) => {
        if (outcome === 'started') {
          if (this.#phase === 'identifying') this.#phase = 'ready';
          return;
        }
        this.#sessionId = undefined;
        this.#phase = 'connected';
        // Over a concurrency bucket or the daily budget: op 9 d:false, no session (gateway.md §7, §9).
        if (outcome === 'refused') this.#send([invalidSessionFrame(false)]);
        else this.close(outcome.closeCode);
      });
  }

  #resume(d: unknown): void {
    if (this.#sessionId !== undefined) {
      this.close(CloseCode.AlreadyAuthenticated);
      return;
    }
    const fields = parseResume(d);
    if (isRefusal(fields)) {
      this.close(fields.closeCode);
      return;
    }
    if (!SESSION_ID.test(fields.sessionId)) {
      this.#send([invalidSessionFrame(false)]);
      return;
    }
    this.#sessionId = fields.sessionId;
    this.#phase = 'resuming';
    void askResume(this.deps.system, this.deps.log, this.socketId, fields).then((outcome) => {
      if (outcome === 'resumed') {
        if (this.#phase === 'resuming') this.#phase = 'ready';
      } else if (outcome === 'reconnect') {
        this.#forgetSession(fields.sessionId);
        this.shutdown();
      } else this.#forgetSession(fields.sessionId, [invalidSessionFrame(false)]);
    });
  }

  #clientOp({ op, d }: ClientPayload): void {
    if (!SESSION_OPS.has(op) && !IGNORED_OPS.has(op)) {
      this.close(CloseCode.UnknownOpcode);
      return;
    }
    const sessionId = this.#sessionId;
    if (sessionId === undefined) {
      this.close(CloseCode.NotAuthenticated);
      return;
    }
    if (SESSION_OPS.has(op)) tellClientOp(this.deps.system, sessionId, op, d);
  }

  /** The socket closed (socket listener). */
  closed(code: number): void {
    this.#closing = true;
    clearTimeout(this.#killTimer);
    this.#encoder?.close();
    this.deps.release(this.socketId);
    const sessionId = this.#sessionId;
    if (sessionId === undefined) return;
    // A client closing 1000/1001 ends its session; so does a server close after which clients identify anew.
    const invalidate = this.#serverCloseCode
      ? !RESUMABLE_CLOSE_CODES.has(this.#serverCloseCode)
      : code === 1000 || code === 1001;
    this.deps.system.tell('session', sessionId, {
      command: { $case: 'detach', detach: { socketId: this.socketId, invalidate } },
    });
  }
}
