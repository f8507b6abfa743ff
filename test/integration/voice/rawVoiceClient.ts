import { createSocket, type Socket as UdpSocket } from 'node:dgram';
import { once } from 'node:events';
import { WebSocket } from 'ws';
import { discoveryRequest, parseDiscoveryResponse } from '../../../src/voice/ipDiscovery.js';
import { openRtpsize, sealRtpsize } from '../../../src/voice/rtpsizeCrypto.js';
import type { VoiceEncryptionMode } from '../../../src/voice/voiceProtocol.js';

/** One voice gateway message as received. */
export interface VoiceMessage {
  op: number;
  d: unknown;
  seq?: number;
}

/** A queue that hands out items in arrival order to whoever awaits them. */
class Inbox<T> {
  private readonly items: T[] = [];
  private readonly waiters: ((item: T) => void)[] = [];
  push(item: T): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(item);
    else this.items.push(item);
  }
  next(): Promise<T> {
    const item = this.items.shift();
    return item !== undefined ? Promise.resolve(item) : new Promise((resolve) => this.waiters.push(resolve));
  }
}

/**
 * A voice client written from Discord's documentation, as a bot library behaves: a WebSocket for the voice gateway
 * and a UDP socket for IP discovery and rtpsize-encrypted RTP.
 */
export class RawVoiceClient {
  private readonly inbox = new Inbox<VoiceMessage>();
  private readonly skipped: VoiceMessage[] = [];
  private readonly datagrams = new Inbox<Buffer>();
  readonly closed: Promise<{ code: number; reason: string }>;
  readonly udp: UdpSocket;
  ssrc = 0;
  mode: VoiceEncryptionMode | undefined;
  key: Buffer | undefined;
  lastSeq = -1;
  private rtpSeq = 100;
  private nonce = 0;

  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString('utf8')) as VoiceMessage;
      if (typeof message.seq === 'number') this.lastSeq = message.seq;
      this.inbox.push(message);
    });
    this.closed = new Promise((resolve) => {
      ws.on('close', (code, reason) => {
        resolve({ code, reason: reason.toString() });
      });
    });
    this.udp = createSocket('udp4');
    this.udp.on('message', (packet) => {
      this.datagrams.push(packet);
    });
  }

  /** Opens a voice socket (`wss://` trusts `ca`) and binds the client's UDP socket on loopback. */
  static async connect(url: string, ca?: string): Promise<RawVoiceClient> {
    const ws = new WebSocket(url, ca ? { ca } : {});
    const client = new RawVoiceClient(ws);
    client.udp.bind(0, '127.0.0.1');
    await Promise.all([once(ws, 'open'), once(client.udp, 'listening')]);
    return client;
  }

  send(op: number, d: unknown): void {
    this.ws.send(JSON.stringify({ op, d }));
  }

  /** The next message, whatever its op (those passed over by nextOf first). */
  next(): Promise<VoiceMessage> {
    const skipped = this.skipped.shift();
    return skipped ? Promise.resolve(skipped) : this.inbox.next();
  }

  /** The next message with this op; others are kept, in order, for later next() and nextOf() calls. */
  async nextOf(op: number): Promise<VoiceMessage> {
    const index = this.skipped.findIndex((message) => message.op === op);
    if (index !== -1) return this.skipped.splice(index, 1)[0] as VoiceMessage;
    for (;;) {
      const message = await this.inbox.next();
      if (message.op === op) return message;
      this.skipped.push(message);
    }
  }

  /** Sends IP discovery to the voice UDP port and returns the server's answer. */
  async discover(port: number): Promise<{ address: string; port: number }> {
    this.udp.send(discoveryRequest(this.ssrc), port, '127.0.0.1');
    const reply = parseDiscoveryResponse(await this.datagrams.next());
    if (!reply) throw new Error('no discovery reply');
    return reply;
  }

  /** Identifies, takes Ready's ssrc, discovers its address, selects a mode and keeps the Session Description's key. */
  async join(identify: Record<string, unknown>, mode: VoiceEncryptionMode): Promise<VoiceMessage> {
    await this.nextOf(8);
    this.send(0, identify);
    const ready = await this.nextOf(2);
    const { ssrc, port } = ready.d as { ssrc: number; port: number };
    this.ssrc = ssrc;
    const own = await this.discover(port);
    this.send(1, { protocol: 'udp', data: { address: own.address, port: own.port, mode } });
    const description = await this.nextOf(4);
    const d = description.d as { mode: VoiceEncryptionMode; secret_key: number[] };
    this.mode = d.mode;
    this.key = Buffer.from(d.secret_key);
    return ready;
  }

  /** Sends one opus-like payload as an encrypted RTP packet with this client's ssrc. */
  sendAudio(payload: Buffer, port: number): void {
    if (!this.mode || !this.key) throw new Error('no session description yet');
    const header = Buffer.alloc(12);
    header[0] = 0x80;
    header[1] = 0x78;
    header.writeUInt16BE((this.rtpSeq += 1) & 0xffff, 2);
    header.writeUInt32BE(this.rtpSeq * 960, 4);
    header.writeUInt32BE(this.ssrc, 8);
    this.udp.send(sealRtpsize(this.mode, this.key, header, payload, (this.nonce += 1)), port, '127.0.0.1');
  }

  /** The next media packet, decrypted with this client's own key: the sender's ssrc and the payload. */
  async receiveAudio(): Promise<{ ssrc: number; payload: Buffer }> {
    if (!this.mode || !this.key) throw new Error('no session description yet');
    const packet = await this.datagrams.next();
    const opened = openRtpsize(this.mode, this.key, packet);
    if (!opened) throw new Error('a media packet did not open with the receiver key');
    return { ssrc: packet.readUInt32BE(8), payload: Buffer.from(opened.plaintext) };
  }

  /** Closes both sockets. */
  async close(): Promise<void> {
    this.udp.close();
    if (this.ws.readyState === WebSocket.OPEN) this.ws.close(1000);
    await this.closed;
  }
}
