import type { Config } from '../config/Config.js';

/**
 * VOICE_SERVER_UPDATE's endpoint for this node: `host:port` without a scheme, as Discord sends it.
 * The host is CHORUS_VOICE_PUBLIC_HOST, else CHORUS_PUBLIC_URL's host, else 127.0.0.1; the port is
 * CHORUS_VOICE_PORT, else the HTTP port + 1 (the port the HTTP listener actually bound, so an
 * ephemeral HTTP port in tests still names a definite voice port).
 */
export function voiceEndpoint(
  voice: Pick<Config['voice'], 'port' | 'publicHost'>,
  publicUrl: string,
  httpPort: number,
): string {
  const host = voice.publicHost || hostOf(publicUrl) || '127.0.0.1';
  const port = voice.port || httpPort + 1;
  return `${host}:${port}`;
}

function hostOf(url: string): string {
  try {
    return url ? new URL(url).hostname : '';
  } catch {
    return '';
  }
}
