import { readFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { generate } from 'selfsigned';

/** The certificate and key the voice WebSocket serves TLS with. */
export interface VoiceTlsMaterial {
  readonly cert: string;
  readonly key: string;
  /** True when generated at start: clients must be told to trust it (NODE_EXTRA_CA_CERTS for bots). */
  readonly selfSigned: boolean;
}

/**
 * Loads the configured PEM certificate and key, or generates a self-signed EC P-256 certificate for the public host
 * (an IP or DNS subject alternative name), since @discordjs/voice only ever dials `wss://`.
 */
export async function voiceTlsMaterial(
  paths: { certPath: string; keyPath: string },
  publicHost: string,
): Promise<VoiceTlsMaterial> {
  if (Boolean(paths.certPath) !== Boolean(paths.keyPath)) {
    throw new Error('the voice TLS certificate and key are configured together (CHORUS_VOICE_TLS_CERT, _KEY)');
  }
  if (paths.certPath) {
    const [cert, key] = await Promise.all([readFile(paths.certPath, 'utf8'), readFile(paths.keyPath, 'utf8')]);
    return { cert, key, selfSigned: false };
  }
  const altName = isIP(publicHost) ? { type: 7 as const, ip: publicHost } : { type: 2 as const, value: publicHost };
  const pems = await generate([{ name: 'commonName', value: publicHost }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [altName] },
    ],
  });
  return { cert: pems.cert, key: pems.private, selfSigned: true };
}
