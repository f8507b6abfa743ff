import { randomBytes, randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import { validate } from '../contract/validate.js';
import type { AppError } from '../domain/errors.js';
import type { Clock } from '../domain/Clock.js';
import type { Logger } from '../domain/Logger.js';
import type { VoiceClaims, VoicePeer } from './VoiceMediaSession.js';
import { VoiceMediaSession } from './VoiceMediaSession.js';
import type { VoiceRooms } from './VoiceRooms.js';
import { VoiceCloseCode, VoiceEncryptionMode, VoiceOp, isVoiceEncryptionMode } from './voiceProtocol.js';
import { MalformedFragment } from './webrtc/clientOffer.js';
import { ownSsrcsOf, relaySpeaking, relayVideo, tellPresent } from './webrtc/ssrcAnnouncements.js';
import type { WebRtcHub } from './webrtc/WebRtcHub.js';

/** What a voice socket needs from its server. */
export interface VoiceConnectionContext {
  readonly rooms: VoiceRooms;
  readonly clock: Clock;
  readonly log: Logger;
  readonly heartbeatIntervalMs: number;
  /** The address and port clients send media to (Ready). */
  readonly mediaHost: string;
  readonly mediaPort: number;
  /** Web clients' peer connections and the forwarding between them and UDP clients. */
  readonly webrtc: WebRtcHub;
  /** What op 16 Backend Version answers for `voice` and `rtc_worker`. */
  readonly backendVersion: string;
  /** Checks a voice token: its claims, or undefined when forged or expired. */
  verifyToken(token: string, nowMs: number): VoiceClaims | undefined;
}

class ProtocolClose extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

function objectOf(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ProtocolClose(VoiceCloseCode.decodeError, 'payload must be an object');
  }
  return value as Record<string, unknown>;
}

function checked<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw new ProtocolClose(VoiceCloseCode.decodeError, (error as AppError).message);
  }
}

/** One voice WebSocket: Hello, then Identify or Resume, then the member's protocol until it closes. */
export class VoiceConnection implements VoicePeer {
  private member: VoiceMediaSession | undefined;
  /** This side closed the socket (a refusal, a move, a resume elsewhere): not the client leaving. */
  private closedHere = false;
  lastHeartbeatMs: number;

  constructor(
    private readonly socket: WebSocket,
    readonly version: number,
    private readonly context: VoiceConnectionContext,
  ) {
    this.lastHeartbeatMs = context.clock.now();
    socket.on('message', (data, isBinary) => {
      this.receive(isBinary || !Buffer.isBuffer(data) ? undefined : data.toString('utf8'));
    });
    socket.on('error', (error) => {
      // A protocol violation below JSON (a bad frame, an oversized message): ws closes the socket itself.
      context.log.info('voice_socket_error', { reason: error.message });
    });
    socket.on('close', (code) => {
      const member = this.member?.peer === this ? this.member : undefined;
      if (!member) return;
      member.peer = undefined;
      // A client closing normally (1000, 1001) has left; any other loss keeps the media session for a Resume
      // until its heartbeats lapse (VoiceRooms.sweep).
      const left = !this.closedHere && (code === 1000 || code === 1001);
      if (left) context.rooms.vanished(member, 'client left', code);
    });
    this.send({ op: VoiceOp.hello, d: { v: version, heartbeat_interval: context.heartbeatIntervalMs } });
  }

  /** Sends one JSON message if the socket is open. */
  send(payload: Record<string, unknown>): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(payload));
  }

  /** Closes the socket with a voice close code. */
  close(code: number, reason: string): void {
    this.closedHere = true;
    if (this.member?.peer === this) this.member.peer = undefined;
    this.socket.close(code, reason);
  }

  private receive(text: string | undefined): void {
    try {
      if (text === undefined) throw new ProtocolClose(VoiceCloseCode.decodeError, 'binary messages are not served');
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new ProtocolClose(VoiceCloseCode.decodeError, 'invalid JSON');
      }
      const message = objectOf(parsed);
      if (typeof message.op !== 'number') throw new ProtocolClose(VoiceCloseCode.decodeError, 'op must be a number');
      this.dispatch(message.op, message.d);
    } catch (error) {
      if (!(error instanceof ProtocolClose)) {
        // Thrown out of a socket's message handler it would end the process (e.g. JSON.stringify's RangeError
        // echoing a nonce nested 30,000 deep): this socket goes instead, and the cause is logged.
        this.context.log.warn('voice_message_failed', { error });
        this.close(VoiceCloseCode.decodeError, 'message could not be processed');
        return;
      }
      this.context.log.info('voice_socket_refused', { code: error.code, reason: error.message });
      this.close(error.code, error.message);
    }
  }

  private dispatch(op: number, d: unknown): void {
    switch (op) {
      case VoiceOp.heartbeat:
        this.heartbeat(d);
        return;
      case VoiceOp.identify:
        this.identify(d);
        return;
      case VoiceOp.resume:
        this.resume(d);
        return;
      case VoiceOp.selectProtocol:
        this.selectProtocol(d);
        return;
      case VoiceOp.speaking:
        this.speaking(d);
        return;
      case VoiceOp.video:
        this.video(d);
        return;
      case VoiceOp.mediaSinkWants:
      case VoiceOp.clientFlags:
      case VoiceOp.clientPlatform:
        this.identified(); // accepted: every stream is forwarded whatever the sink wants, flags and platform
        return;
      case VoiceOp.backendVersion: {
        const version = this.context.backendVersion;
        this.send({ op: VoiceOp.backendVersion, d: { voice: version, rtc_worker: version } });
        return;
      }
      default:
        throw new ProtocolClose(VoiceCloseCode.unknownOpcode, `unknown opcode ${op}`);
    }
  }

  private identified(): VoiceMediaSession {
    if (!this.member) throw new ProtocolClose(VoiceCloseCode.notAuthenticated, 'identify first');
    return this.member;
  }

  private heartbeat(d: unknown): void {
    const now = this.context.clock.now();
    this.lastHeartbeatMs = now;
    if (this.member) this.member.lastHeartbeatMs = now;
    if (typeof d === 'object' && d !== null && !Array.isArray(d)) {
      const { t, seq_ack: seqAck } = d as Record<string, unknown>;
      if (typeof seqAck === 'number') this.member?.acknowledge(seqAck);
      this.send({ op: VoiceOp.heartbeatAck, d: { t } });
    } else {
      this.send({ op: VoiceOp.heartbeatAck, d }); // legacy heartbeat: a bare nonce, echoed
    }
  }

  private identify(d: unknown): void {
    if (this.member) throw new ProtocolClose(VoiceCloseCode.alreadyAuthenticated, 'already identified');
    const body = checked(() => validate('VoiceIdentifySchema', d));
    const now = this.context.clock.now();
    const claims = this.context.verifyToken(body.token, now);
    const matches =
      claims !== undefined &&
      claims.userId === body.user_id &&
      claims.sessionId === body.session_id &&
      claims.guildId === body.server_id;
    if (!matches || !this.context.rooms.claimNonce(claims.nonce, now)) {
      throw new ProtocolClose(VoiceCloseCode.authenticationFailed, 'authentication failed');
    }
    const { rooms, mediaHost, mediaPort, heartbeatIntervalMs } = this.context;
    const member = new VoiceMediaSession(claims, body.token, rooms.freshSsrc(), now);
    member.peer = this;
    this.member = member;
    const modes = [VoiceEncryptionMode.aesGcm, VoiceEncryptionMode.xchacha];
    // Discord's Ready carries a heartbeat_interval that clients are told to ignore; it repeats Hello's here.
    const ready = { ssrc: member.ssrc, ip: mediaHost, port: mediaPort, modes, heartbeat_interval: heartbeatIntervalMs };
    member.sendNumbered(VoiceOp.ready, ready);
    rooms.join(member);
    this.context.log.info('voice_identified', { userId: claims.userId, channelId: claims.channelId });
  }

  private resume(d: unknown): void {
    if (this.member) throw new ProtocolClose(VoiceCloseCode.alreadyAuthenticated, 'already identified');
    const body = objectOf(d);
    const { server_id: guildId, session_id: sessionId, token, seq_ack: seqAck } = body;
    if (typeof guildId !== 'string' || typeof sessionId !== 'string' || typeof token !== 'string') {
      throw new ProtocolClose(VoiceCloseCode.decodeError, 'resume needs server_id, session_id and token');
    }
    const member = this.context.rooms.resumable(guildId, sessionId);
    if (member?.token !== token)
      throw new ProtocolClose(VoiceCloseCode.sessionNoLongerValid, 'session no longer valid');
    const previous = member.peer;
    member.peer = this;
    this.member = member;
    member.lastHeartbeatMs = this.context.clock.now();
    previous?.close(1000, 'resumed elsewhere');
    member.peer = this;
    this.send({ op: VoiceOp.resumed, d: null });
    member.replayAfter(typeof seqAck === 'number' ? seqAck : 0);
  }

  private selectProtocol(d: unknown): void {
    const member = this.identified();
    const protocol = objectOf(d).protocol;
    if (protocol === 'webrtc') {
      this.selectWebRtc(member, d);
      return;
    }
    if (protocol !== 'udp') throw new ProtocolClose(VoiceCloseCode.unknownProtocol, 'unknown protocol');
    const body = checked(() => validate('SelectProtocolSchema', d));
    if (typeof body.data === 'string')
      throw new ProtocolClose(VoiceCloseCode.decodeError, 'udp data must be an object');
    if (!isVoiceEncryptionMode(body.data.mode)) {
      throw new ProtocolClose(VoiceCloseCode.unknownEncryptionMode, 'unknown encryption mode');
    }
    member.mode = body.data.mode;
    member.secretKey = randomBytes(32);
    // A UDP client sends from Ready's ssrc: one it named in an op 5 before selecting is not its media's.
    member.announced.audio = member.announced.video = member.announced.rtx = undefined;
    // The address the client claims here is never sent to (it could name anyone: a reflector); media goes to the
    // source of its IP discovery or, without one, of its first packet that opens with its key (mediaRelay).
    member.sendNumbered(VoiceOp.sessionDescription, {
      mode: member.mode,
      secret_key: [...member.secretKey],
      audio_codec: 'opus',
      dave_protocol_version: 0,
    });
    tellPresent(this.context.rooms, member);
  }

  /** Op 1 of a web client: a werift peer answers its fragment; op 4 carries the SDP template (no key, no mode). */
  private selectWebRtc(member: VoiceMediaSession, d: unknown): void {
    const body = checked(() => validate('SelectProtocolSchema', d));
    this.context.webrtc.select(member, body).then(
      (description) => {
        member.sendNumbered(VoiceOp.sessionDescription, {
          ...description,
          media_session_id: randomUUID().replaceAll('-', ''),
          dave_protocol_version: 0,
        });
        tellPresent(this.context.rooms, member);
      },
      (error: unknown) => {
        if (!(error instanceof MalformedFragment)) {
          this.close(VoiceCloseCode.serverCrashed, 'webrtc select failed'); // WebRtcHub logged why
          return;
        }
        this.context.log.info('voice_socket_refused', { code: VoiceCloseCode.decodeError, reason: error.message });
        this.close(VoiceCloseCode.decodeError, error.message);
      },
    );
  }

  /** Op 12: a client's own ssrcs (a web client's media is received by them) relayed as each receiver sees them. */
  private video(d: unknown): void {
    const member = this.identified();
    const body = checked(() => validate('VoiceVideoSchema', d));
    this.context.webrtc.announce(member, ownSsrcsOf(body));
    relayVideo(this.context.rooms, member, body);
  }

  private speaking(d: unknown): void {
    const member = this.identified();
    const { speaking, ssrc } = objectOf(d);
    if (typeof speaking !== 'number' || !Number.isInteger(speaking)) {
      throw new ProtocolClose(VoiceCloseCode.decodeError, 'speaking must be an integer');
    }
    // A web client sends from its browser's own ssrc; a UDP client's is the one Ready assigned.
    const ownSsrc = typeof ssrc === 'number' && Number.isInteger(ssrc) && ssrc > 0 && ssrc <= 0xffffffff;
    if (member.mode === undefined && ownSsrc && ssrc !== member.ssrc) {
      this.context.webrtc.announce(member, { audio: ssrc });
    }
    member.speaking = speaking;
    relaySpeaking(this.context.rooms, member, speaking);
  }
}
