import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server as HttpServer,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import type { MemberVoiceState } from '../../proto/gen/chorus/v1/voice.js';
import type { Clock } from '../domain/Clock.js';
import type { Logger } from '../domain/Logger.js';
import { relayDatagram, type MediaRelayStats } from './mediaRelay.js';
import { VoiceConnection, type VoiceConnectionContext } from './VoiceConnection.js';
import type { VoiceClaims } from './VoiceMediaSession.js';
import { VoiceRooms } from './VoiceRooms.js';
import { VOICE_VERSIONS } from './voiceProtocol.js';
import type { VoiceTlsMaterial } from './voiceTls.js';
import { WebRtcHub } from './webrtc/WebRtcHub.js';

/** What op 16 Backend Version reports for the voice gateway and its RTC worker. */
const VOICE_BACKEND_VERSION = 'chorus-voice-1';
/** The first byte of a TLS handshake record; anything else on the port is plain HTTP (ws://). */
const TLS_HANDSHAKE = 0x16;

/** How a voice server is set up. */
export interface VoiceServerOptions {
  /** Address to listen on (TCP and UDP) and the port both use; 0 picks one free for both. */
  readonly host: string;
  readonly port: number;
  /** Address clients are told to send media to (Ready `ip`); must be IPv4 for @discordjs/voice. */
  readonly publicHost: string;
  readonly tls: VoiceTlsMaterial;
  /** UDP ports web clients' peer connections bind ([min, max]); undefined for ephemeral ports. */
  readonly rtcPortRange?: readonly [number, number] | undefined;
  readonly heartbeatIntervalMs: number;
  readonly clock: Clock;
  readonly log: Logger;
  verifyToken(token: string, nowMs: number): VoiceClaims | undefined;
  /** A member dropped because its client is gone (heartbeats lapsed, socket closed for good). */
  onVanished?(claims: VoiceClaims): void;
}

/** A listening voice service. */
export interface RunningVoiceServer {
  /** The port TCP (wss and ws) and UDP share. */
  readonly port: number;
  /** `host:port` as VOICE_SERVER_UPDATE's endpoint names it (no scheme). */
  readonly endpoint: string;
  readonly tls: VoiceTlsMaterial;
  readonly stats: MediaRelayStats;
  /** Applies the Guild's decision about a member of a voice channel hosted here (the voice room actor's port). */
  applyMemberState(channelId: string, state: MemberVoiceState): void;
  /** Whether the channel's room is known here (the voice room actor's port; VoiceRooms.knows). */
  knowsRoom(guildId: string, channelId: string): boolean;
  /** Marks the rooms the ring placed elsewhere as handed over (VoiceRooms.handOver); the moved rooms. */
  handOverRooms(placedHere: (channelId: string) => boolean): { guildId: string; channelId: string }[];
  close(): Promise<void>;
}

function versionOf(request: IncomingMessage): number | undefined {
  const asked = new URL(request.url ?? '/', 'http://voice').searchParams.get('v');
  if (asked === null) return VOICE_VERSIONS.withoutQuery;
  const version = Number(asked);
  return Number.isInteger(version) && version >= VOICE_VERSIONS.min && version <= VOICE_VERSIONS.max
    ? version
    : undefined;
}

/**
 * The socket as a plain stream that first yields the bytes already read from it. TLS reads a net.Socket's handle
 * directly, so bytes put back with unshift() would never reach the handshake; a stream without a handle works.
 */
function replayingStream(socket: Socket, first: Buffer): Duplex {
  const stream = new Duplex({
    read() {
      socket.resume();
    },
    write(chunk: Buffer, _encoding, callback) {
      socket.write(chunk, callback);
    },
    final(callback) {
      socket.end(callback);
    },
    destroy(error, callback) {
      socket.destroy();
      callback(error);
    },
  });
  stream.push(first);
  socket.on('data', (chunk) => {
    if (!stream.push(chunk)) socket.pause();
  });
  socket.on('end', () => stream.push(null));
  socket.on('close', () => stream.destroy());
  return stream;
}

async function bindUdp(host: string, port: number): Promise<UdpSocket> {
  const udp = createSocket('udp4');
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(port, host, () => {
      udp.off('error', reject);
      resolve();
    });
  });
  return udp;
}

async function listenTcp(server: TcpServer, host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Binds UDP first (port 0 picks one), then TCP on the same number; retries when that TCP port is taken. */
async function bindPorts(host: string, port: number, tcp: TcpServer): Promise<UdpSocket> {
  for (let attempt = 0; ; attempt++) {
    const udp = await bindUdp(host, port);
    try {
      await listenTcp(tcp, host, udp.address().port);
      return udp;
    } catch (error) {
      udp.close();
      if (port !== 0 || attempt >= 10) throw error;
    }
  }
}

/**
 * Starts the voice service: one TCP port serving wss:// and ws:// (told apart by the first byte), the voice
 * gateway on it, one UDP socket on the same port number relaying media, and a heartbeat sweep.
 */
export async function startVoiceServer(options: VoiceServerOptions): Promise<RunningVoiceServer> {
  const { log, clock, heartbeatIntervalMs } = options;
  const rooms = new VoiceRooms((claims) => options.onVanished?.(claims));
  const stats: MediaRelayStats = { forwarded: 0, dropped: 0 };
  const connections = new Set<VoiceConnection>();
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const refuse = (_request: IncomingMessage, response: ServerResponse): void => {
    response.writeHead(426, { 'content-type': 'text/plain' }).end('voice gateway: WebSocket only');
  };
  const plain = createHttpServer(refuse);
  const secure = createHttpsServer({ cert: options.tls.cert, key: options.tls.key }, refuse);
  const tcp = createTcpServer((socket: Socket) => {
    socket.on('error', () => socket.destroy());
    socket.once('data', (first) => {
      socket.pause();
      if (first[0] === TLS_HANDSHAKE) {
        secure.emit('connection', replayingStream(socket, first));
      } else {
        socket.unshift(first);
        plain.emit('connection', socket);
        socket.resume();
      }
    });
  });
  const udp = await bindPorts(options.host, options.port, tcp);
  const port = udp.address().port;
  const webrtc = new WebRtcHub(
    rooms,
    udp,
    stats,
    { publicHost: options.publicHost, portRange: options.rtcPortRange },
    log,
    clock,
  );
  const context: VoiceConnectionContext = {
    rooms,
    clock,
    log,
    heartbeatIntervalMs,
    mediaHost: options.publicHost,
    mediaPort: port,
    webrtc,
    backendVersion: VOICE_BACKEND_VERSION,
    verifyToken: (token, nowMs) => options.verifyToken(token, nowMs),
  };
  const upgrade = (server: HttpServer) =>
    server.on('upgrade', (request: IncomingMessage, socket: Socket, head: Buffer) => {
      const version = versionOf(request);
      if (version === undefined) {
        socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
        return;
      }
      wss.handleUpgrade(request, socket, head, (ws) => {
        const connection = new VoiceConnection(ws, version, context);
        connections.add(connection);
        ws.on('close', () => connections.delete(connection));
      });
    });
  upgrade(plain);
  upgrade(secure);
  // A send to a member whose address vanished reports here; it must not end the process.
  udp.on('error', (error) => {
    log.warn('voice_udp_error', { error });
  });
  udp.on('message', (packet, from) => {
    try {
      relayDatagram(udp, rooms, packet, from, stats, webrtc);
    } catch (error) {
      stats.dropped++;
      log.warn('voice_datagram_failed', { error });
    }
  });
  const windowMs = heartbeatIntervalMs * 2;
  const sweep = setInterval(
    () => {
      const now = clock.now();
      rooms.sweep(now, windowMs);
      for (const connection of connections) {
        if (now - connection.lastHeartbeatMs > windowMs) connection.close(4009, 'heartbeat timeout');
      }
    },
    Math.max(10, Math.floor(heartbeatIntervalMs / 4)),
  );
  sweep.unref();
  const endpoint = `${options.publicHost}:${port}`;
  log.info('voice_started', { endpoint, selfSignedCert: options.tls.selfSigned });
  return {
    port,
    endpoint,
    tls: options.tls,
    stats,
    applyMemberState: (channelId, state) => {
      rooms.applyMemberState(channelId, state);
    },
    handOverRooms: (placedHere) => rooms.handOver(placedHere),
    knowsRoom: (guildId, channelId) => rooms.knows(guildId, channelId),
    close: async () => {
      clearInterval(sweep);
      rooms.closeAll();
      for (const connection of connections) connection.close(1001, 'voice server closing');
      wss.close();
      udp.close();
      await new Promise<void>((resolve) => {
        tcp.close(() => {
          resolve();
        });
      });
    },
  };
}
