import type { ActorSystem } from '../../cluster/ActorSystem.js';
import type { Config } from '../config/Config.js';
import { systemClock } from '../domain/Clock.js';
import type { Logger } from '../domain/Logger.js';
import { verifyVoiceToken } from '../domain/voiceToken.js';
import type { VoiceClaims } from '../voice/VoiceMediaSession.js';
import { startVoiceServer, type RunningVoiceServer } from '../voice/VoiceServer.js';
import { voiceTlsMaterial } from '../voice/voiceTls.js';

/** The WebRTC port range when both ends are set (werift needs min < max), else undefined for ephemeral ports. */
function rtcPortRange(voice: Config['voice']): [number, number] | undefined {
  const { rtcPortMin: min, rtcPortMax: max } = voice;
  return min > 0 && max > min ? [min, max] : undefined;
}

function isAddressInUse(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
}

/**
 * A member the voice service dropped as vanished leaves its guild's voice channel, as if its session had sent
 * op 4 with channel_id null, but only while the guild's state still names that channel and session (if_channel_id):
 * a client that moved meanwhile keeps its new channel. A tell: the Guild may live on any node.
 */
function leaveGuildVoice(system: Pick<ActorSystem, 'tell'>, claims: VoiceClaims): void {
  const { userId, sessionId, guildId, channelId } = claims;
  system.tell('guild', guildId, {
    command: {
      $case: 'voiceStateChange',
      voiceStateChange: {
        userId,
        sessionId,
        channelId: '',
        selfMute: false,
        selfDeaf: false,
        selfVideo: false,
        ifChannelId: channelId,
      },
    },
  });
}

/**
 * Starts this node's voice service on the port its VOICE_SERVER_UPDATE endpoint names, verifying tokens with the
 * node's token secret; members it drops as vanished leave their guild's voice state through `system`. When the
 * port is derived (HTTP port + 1, CHORUS_VOICE_PORT unset) and taken, the node runs without voice and says so; a
 * configured port that is taken fails the start.
 */
export async function startNodeVoice(
  config: Config,
  endpoint: string,
  tokenSecret: string,
  log: Logger,
  system: Pick<ActorSystem, 'tell'>,
): Promise<RunningVoiceServer | undefined> {
  const separator = endpoint.lastIndexOf(':');
  const publicHost = endpoint.slice(0, separator);
  const port = Number(endpoint.slice(separator + 1));
  const tls = await voiceTlsMaterial(
    { certPath: config.voice.tlsCertPath, keyPath: config.voice.tlsKeyPath },
    publicHost,
  );
  try {
    return await startVoiceServer({
      host: config.http.host,
      port,
      publicHost,
      tls,
      rtcPortRange: rtcPortRange(config.voice),
      heartbeatIntervalMs: config.voice.heartbeatIntervalMs,
      clock: systemClock,
      log: log.child({ service: 'voice' }),
      verifyToken: (token, nowMs) => verifyVoiceToken(tokenSecret, token, nowMs),
      onVanished: (claims) => {
        leaveGuildVoice(system, claims);
      },
    });
  } catch (error) {
    if (config.voice.port !== 0 || !isAddressInUse(error)) throw error;
    log.warn('voice_unavailable', { endpoint, reason: 'the HTTP port + 1 is taken; set CHORUS_VOICE_PORT' });
    return undefined;
  }
}
