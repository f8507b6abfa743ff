import type { Config } from '../config/Config.js';
import { systemClock } from '../domain/Clock.js';
import type { Logger } from '../domain/Logger.js';
import { verifyVoiceToken } from '../domain/voiceToken.js';
import { startVoiceServer, type RunningVoiceServer } from '../voice/VoiceServer.js';
import { voiceTlsMaterial } from '../voice/voiceTls.js';
import { voiceEndpoint } from './voiceEndpoint.js';

/** Discord's voice Hello interval; @discordjs/voice heartbeats at exactly this period. */
const VOICE_HEARTBEAT_INTERVAL_MS = 41_250;

function isAddressInUse(error: unknown): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === 'EADDRINUSE';
}

/**
 * Starts this node's voice service on the port its VOICE_SERVER_UPDATE endpoint names, verifying tokens with the
 * node's token secret. When the port is derived (HTTP port + 1, CHORUS_VOICE_PORT unset) and taken, the node runs
 * without voice and says so; a configured port that is taken fails the start.
 */
export async function startNodeVoice(
  config: Config,
  httpPort: number,
  tokenSecret: string,
  log: Logger,
): Promise<RunningVoiceServer | undefined> {
  const endpoint = voiceEndpoint(config.voice, config.http.publicUrl, httpPort);
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
      heartbeatIntervalMs: VOICE_HEARTBEAT_INTERVAL_MS,
      clock: systemClock,
      log: log.child({ service: 'voice' }),
      verifyToken: (token, nowMs) => verifyVoiceToken(tokenSecret, token, nowMs),
    });
  } catch (error) {
    if (config.voice.port !== 0 || !isAddressInUse(error)) throw error;
    log.warn('voice_unavailable', { endpoint, reason: 'the HTTP port + 1 is taken; set CHORUS_VOICE_PORT' });
    return undefined;
  }
}
