import type { VoiceServerJson, VoiceWorld } from '../../gateway/voiceFixtures.js';
import type { TestUser } from '../../../support/testServer.js';
import { VoiceEncryptionMode } from '../../../../src/voice/voiceProtocol.js';
import { RawVoiceClient } from '../rawVoiceClient.js';
import { opusToneFrames, OpusLoudness } from './opusTone.js';

/** A bot on the UDP path (rawVoiceClient: IP discovery, AES-GCM rtpsize) joined through the main gateway. */
export interface UdpBot {
  readonly voice: RawVoiceClient;
  readonly userId: string;
  readonly mediaPort: number;
}

/** Joins `channelId` as a bot library does (op 4 undeafened, VOICE_SERVER_UPDATE, wss:// trusting the node's cert). */
export async function joinUdpBot(world: VoiceWorld, user: TestUser, channelId: string): Promise<UdpBot> {
  const { client, sessionId } = await world.connect(user.token);
  client.send(4, { guild_id: world.guild.id, channel_id: channelId, self_mute: false, self_deaf: false });
  const update = await client.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE');
  const { voice: service } = world.server.node;
  if (!service) throw new Error('the node runs no voice service');
  const voice = await RawVoiceClient.connect(`wss://${update.d.endpoint}/?v=8`, service.tls.cert);
  const identify = { server_id: world.guild.id, user_id: user.id, session_id: sessionId, token: update.d.token };
  await voice.join(identify, VoiceEncryptionMode.aesGcm);
  return { voice, userId: user.id, mediaPort: service.port };
}

/** Settles as `work` does, or fails with `what` after `timeoutMs`. */
async function within<T>(work: Promise<T>, timeoutMs: number, what: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(what()));
    }, timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** The SSRC a user's audio reaches this bot with, from the op 5 the server relays for that user. */
export async function ssrcOfUser(bot: UdpBot, userId: string, timeoutMs = 10_000): Promise<number> {
  const speakings: unknown[] = [];
  const told = async (): Promise<number> => {
    for (;;) {
      const speaking = await bot.voice.nextOf(5);
      speakings.push(speaking.d);
      const d = speaking.d as { user_id?: string; ssrc?: number };
      if (d.user_id === userId && typeof d.ssrc === 'number' && d.ssrc !== 0) return d.ssrc;
    }
  };
  return within(told(), timeoutMs, () => `no op 5 named ${userId}'s ssrc; op 5s: ${JSON.stringify(speakings)}`);
}

/** What the bot heard from one SSRC: packets decrypted, those that decode to a tone, and packets from others. */
export interface Heard {
  readonly packets: number;
  readonly loud: number;
  readonly otherSsrcs: number;
  readonly unopened: number;
}

/**
 * Receives until `count` packets from `ssrc` opened with the bot's key (each decoded with opusscript, "loud" when
 * its RMS passes 0.05 of full scale), or fails after `timeoutMs` with what arrived.
 */
export async function hear(bot: UdpBot, ssrc: number, count: number, timeoutMs: number): Promise<Heard> {
  const loudness = new OpusLoudness();
  const heard = { packets: 0, loud: 0, otherSsrcs: 0, unopened: 0 };
  const receive = async (): Promise<Heard> => {
    while (heard.packets < count) {
      const packet = await bot.voice.receiveAudio().catch(() => undefined);
      if (!packet) heard.unopened++;
      else if (packet.ssrc !== ssrc) heard.otherSsrcs++;
      else {
        heard.packets++;
        if (loudness.rmsOf(packet.payload) > 0.05) heard.loud++;
      }
    }
    return heard;
  };
  try {
    const what = () => `the bot heard ${JSON.stringify(heard)} of ${count} packets from ssrc ${ssrc}`;
    return await within(receive(), timeoutMs, what);
  } finally {
    loudness.close();
  }
}

/** Announces Speaking and sends a 440 Hz opus tone, one frame per 20 ms as a bot plays audio, until stopped. */
export function playTone(bot: UdpBot): { stop(): number } {
  bot.voice.send(5, { speaking: 1, delay: 0, ssrc: bot.voice.ssrc });
  const frames = opusToneFrames(50);
  let sent = 0;
  const timer = setInterval(() => {
    bot.voice.sendAudio(frames[sent % frames.length] as Buffer, bot.mediaPort);
    sent++;
  }, 20);
  return {
    stop: () => {
      clearInterval(timer);
      return sent;
    },
  };
}
