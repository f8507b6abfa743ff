import { startLoopbackVoiceServer } from '../integration/voice/loopbackVoiceServer.js';
import type { Socket as UdpSocket } from 'node:dgram';
import { voiceGrant, type VoiceGrant } from '../support/voiceGrant.js';
import { sealRtpsize } from '../../src/voice/rtpsizeCrypto.js';
import { VoiceEncryptionMode } from '../../src/voice/voiceProtocol.js';
import { type RunningVoiceServer } from '../../src/voice/VoiceServer.js';
import { RawVoiceClient } from '../integration/voice/rawVoiceClient.js';

export const VOICE_SECRET = 'voice-bad-input-secret';
export const GUILD = '100000000000000009';
export const ALICE = '200000000000000011';
export const BOB = '200000000000000012';
export const CAROL = '200000000000000013';

let channel = 300000000000000000n;
let sessionCounter = 0;

/** A channel no other test uses, so members a test leaves behind never hear the next one. */
export function freshChannel(): string {
  channel += 1n;
  return String(channel);
}

/** A voice grant as VOICE_SERVER_UPDATE carries it, and the Identify that uses it. */
export function grant(
  userId: string,
  channelId: string,
  options: { sessionId?: string; issuedAtMs?: number; ttlMs?: number } = {},
): VoiceGrant {
  const sessionId = options.sessionId ?? `badinput${(sessionCounter += 1)}`;
  return voiceGrant(VOICE_SECRET, { userId, sessionId, guildId: GUILD, channelId }, { ...options, maxDaveVersion: 0 });
}

/** The voice service as a node runs it, with its own heartbeat interval (the sweep runs at a quarter of it). */
export async function startBadInputServer(heartbeatIntervalMs = 41_250): Promise<RunningVoiceServer> {
  return startLoopbackVoiceServer(VOICE_SECRET, { heartbeatIntervalMs });
}

/** Opens raw voice clients on one server and closes them all at the end of a test. */
export class VoiceClients {
  private readonly open: RawVoiceClient[] = [];

  constructor(private readonly server: () => RunningVoiceServer) {}

  async connect(query = '?v=8'): Promise<RawVoiceClient> {
    const client = await RawVoiceClient.connect(`ws://${this.server().endpoint}/${query}`);
    this.open.push(client);
    return client;
  }

  /** A client past Hello, identified and holding its key (AES-GCM unless told). */
  async joined(userId: string, channelId: string, mode: VoiceEncryptionMode = VoiceEncryptionMode.aesGcm) {
    const client = await this.connect();
    const given = grant(userId, channelId);
    await client.join(given.identify, mode);
    return { client, grant: given };
  }

  async closeAll(): Promise<void> {
    await Promise.all(
      this.open.splice(0).map(async (client) => {
        try {
          await client.close();
        } catch {
          // already closed by the test (a vanished client)
        }
      }),
    );
  }
}

/** Sends one datagram and resolves once the kernel took it, so datagrams sent one after another arrive in order. */
export function sendDatagram(udp: UdpSocket, packet: Buffer, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    udp.send(packet, port, '127.0.0.1', (error) => {
      if (error) reject(error);
      else resolve();
    });
  });
}

/** An RTP header as @discordjs/voice writes it (version 2, PT 120) for an ssrc. */
export function rtpHeader(ssrc: number, seq = 1): Buffer {
  const header = Buffer.alloc(12);
  header[0] = 0x80;
  header[1] = 0x78;
  header.writeUInt16BE(seq & 0xffff, 2);
  header.writeUInt32BE(seq * 960, 4);
  header.writeUInt32BE(ssrc >>> 0, 8);
  return header;
}

/** A well-formed media packet of a client, sealed with its key (the input every corrupted variant starts from). */
export function sealedPacket(client: RawVoiceClient, payload: Buffer, counter: number, ssrc = client.ssrc): Buffer {
  if (!client.key || !client.mode) throw new Error('client has no key yet');
  return sealRtpsize(client.mode, client.key, rtpHeader(ssrc, 7), payload, counter);
}
