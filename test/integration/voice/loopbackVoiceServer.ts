import { systemClock } from '../../../src/domain/Clock.js';
import { createLogger } from '../../../src/domain/Logger.js';
import { verifyVoiceToken } from '../../../src/domain/voiceToken.js';
import { startVoiceServer, type RunningVoiceServer, type VoiceServerOptions } from '../../../src/voice/VoiceServer.js';
import { voiceTlsMaterial, type VoiceTlsMaterial } from '../../../src/voice/voiceTls.js';

/**
 * The voice service alone, as a node starts it, on loopback with a free port: tokens signed with `secret`, a
 * self-signed certificate unless `tls` is given, Discord's heartbeat interval unless another is asked for.
 */
export async function startLoopbackVoiceServer(
  secret: string,
  options: {
    readonly heartbeatIntervalMs?: number;
    readonly tls?: VoiceTlsMaterial;
    readonly rtcPortRange?: VoiceServerOptions['rtcPortRange'];
  } = {},
): Promise<RunningVoiceServer> {
  return startVoiceServer({
    host: '127.0.0.1',
    port: 0,
    publicHost: '127.0.0.1',
    tls: options.tls ?? (await voiceTlsMaterial({ certPath: '', keyPath: '' }, '127.0.0.1')),
    rtcPortRange: options.rtcPortRange,
    heartbeatIntervalMs: options.heartbeatIntervalMs ?? 41_250,
    clock: systemClock,
    log: createLogger('silent'),
    verifyToken: (token, nowMs) => verifyVoiceToken(secret, token, nowMs),
  });
}
