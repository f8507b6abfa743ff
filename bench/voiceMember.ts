import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { once } from 'node:events';
import WebSocket from 'ws';
import { discoveryRequest, parseDiscoveryResponse } from '../src/voice/ipDiscovery.js';
import { VoiceEncryptionMode } from '../src/voice/voiceProtocol.js';

/** A bench client in a relay's channel: its UDP socket, ssrc and the key packets to it are sealed with. */
export interface LoadMember {
  readonly udp: UdpSocket;
  readonly ssrc: number;
  readonly key: Buffer;
  close(): void;
}

interface Frame {
  op: number;
  d: Record<string, unknown> | null;
  t?: string | null;
}

/** A JSON WebSocket whose frames are kept from the first, so none is missed between awaits. */
class FrameSocket {
  private readonly frames: Frame[] = [];
  private waiter: (() => void) | undefined;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      this.frames.push(JSON.parse(data.toString('utf8')) as Frame);
      this.waiter?.();
    });
  }

  static async open(url: string): Promise<FrameSocket> {
    const framed = new FrameSocket(new WebSocket(url));
    await once(framed.socket, 'open');
    return framed;
  }

  send(op: number, d: unknown): void {
    this.socket.send(JSON.stringify({ op, d }));
  }

  /** The first frame `match` accepts (frames before it are dropped), waiting up to 15 s. */
  async next(match: (frame: Frame) => boolean, what: string): Promise<Frame> {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const frame = this.frames.shift();
      if (frame && match(frame)) return frame;
      if (frame) continue;
      if (Date.now() > deadline) throw new Error(`no ${what} within 15 s`);
      await new Promise<void>((resolve) => {
        this.waiter = resolve;
        setTimeout(resolve, 1_000).unref();
      });
    }
  }
}

/** Heartbeats a socket at the interval its Hello named, until it closes. */
function heartbeat(socket: WebSocket, intervalMs: number, payload: () => unknown): void {
  const timer = setInterval(() => {
    if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(payload()));
  }, intervalMs);
  timer.unref();
  socket.once('close', () => {
    clearInterval(timer);
  });
}

/**
 * A user joining a voice channel as a bot library does: main gateway Identify, op 4, VOICE_SERVER_UPDATE, then the
 * voice WebSocket (ws://, plain, on the same port as wss://) with Identify, IP discovery and Select Protocol
 * (AES-GCM rtpsize), ending with the Session Description's key; also the UDP port Ready named.
 */
export async function joinVoice(
  gatewayUrl: string,
  token: string,
  guildId: string,
  channelId: string,
): Promise<{ member: LoadMember; mediaPort: number }> {
  const gateway = await FrameSocket.open(gatewayUrl);
  const hello = await gateway.next((frame) => frame.op === 10, 'gateway Hello');
  heartbeat(gateway.socket, Number(hello.d?.['heartbeat_interval'] ?? 41_250), () => ({ op: 1, d: null }));
  const properties = { os: 'linux', browser: 'voice-bench', device: 'voice-bench' };
  gateway.send(2, { token, intents: (1 << 0) | (1 << 7), properties });
  const ready = (await gateway.next((frame) => frame.t === 'READY', 'READY')).d ?? {};
  const sessionId = String(ready['session_id']);
  const userId = (ready['user'] as { id: string }).id;
  gateway.send(4, { guild_id: guildId, channel_id: channelId, self_mute: false, self_deaf: false });
  const server = (await gateway.next((frame) => frame.t === 'VOICE_SERVER_UPDATE', 'VOICE_SERVER_UPDATE')).d ?? {};

  const voice = await FrameSocket.open(`ws://${String(server['endpoint'])}/?v=8`);
  const voiceHello = await voice.next((frame) => frame.op === 8, 'voice Hello');
  heartbeat(voice.socket, Number(voiceHello.d?.['heartbeat_interval'] ?? 41_250), () => ({
    op: 3,
    d: { t: Date.now(), seq_ack: -1 },
  }));
  voice.send(0, { server_id: guildId, user_id: userId, session_id: sessionId, token: server['token'] });
  const voiceReady = await voice.next((frame) => frame.op === 2, 'voice Ready');
  const { ssrc, port, ip } = voiceReady.d as { ssrc: number; port: number; ip: string };

  const udp = createSocket('udp4');
  udp.bind(0, '127.0.0.1');
  await once(udp, 'listening');
  const answer = once(udp, 'message') as Promise<[Buffer]>;
  udp.send(discoveryRequest(ssrc), port, ip);
  const own = parseDiscoveryResponse((await answer)[0]);
  if (!own) throw new Error('no IP discovery answer');
  const data = { address: own.address, port: own.port, mode: VoiceEncryptionMode.aesGcm };
  voice.send(1, { protocol: 'udp', data });
  const description = await voice.next((frame) => frame.op === 4, 'Session Description');
  const key = Buffer.from(description.d?.['secret_key'] as number[]);
  const close = (): void => {
    udp.close();
    voice.socket.close(1000);
    gateway.socket.close(1000);
  };
  return { member: { udp, ssrc, key, close }, mediaPort: port };
}
