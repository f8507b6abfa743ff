import { isIPv4 } from 'node:net';

/** The server side of a web client's session: the SDP template op 4 carries and the candidate's port. */
export interface ServerSdpTemplate {
  readonly sdp: string;
  readonly port: number;
}

function attribute(lines: readonly string[], name: string): string {
  const line = lines.find((candidate) => candidate.startsWith(`a=${name}:`));
  if (line === undefined) throw new Error(`the local answer has no a=${name}`);
  return line.slice(name.length + 3);
}

/** A UDP host candidate: `a=candidate:foundation component UDP priority address port typ host ...`. */
function hostCandidates(lines: readonly string[]): { address: string; port: number }[] {
  return lines
    .filter((line) => line.startsWith('a=candidate:'))
    .map((line) => line.split(' '))
    .filter((parts) => parts[2]?.toLowerCase() === 'udp' && parts[7] === 'host')
    .map((parts) => ({ address: parts[4] ?? '', port: Number(parts[5]) }));
}

/**
 * The few lines Discord's web client reads from op 4's `sdp` to build its remote answer (an SBP-shaped template):
 * `m=audio`, a 3-part `c=` line, `a=rtcp`, ICE credentials, the DTLS fingerprint and one host candidate on the
 * public host. When werift gathered no candidate on that host (a 1:1 NAT), the first IPv4 candidate's port is
 * announced on it.
 */
export function serverSdpTemplate(localAnswer: string, publicHost: string): ServerSdpTemplate {
  const lines = localAnswer.split(/\r?\n/);
  const candidates = hostCandidates(lines);
  const chosen =
    candidates.find((candidate) => candidate.address === publicHost) ??
    candidates.find((candidate) => isIPv4(candidate.address));
  if (!chosen || !Number.isInteger(chosen.port)) throw new Error('werift gathered no IPv4 host candidate');
  const { port } = chosen;
  const sdp = [
    `m=audio ${port} ICE/SDP`,
    `a=fingerprint:${attribute(lines, 'fingerprint')}`,
    `c=IN IP4 ${publicHost}`,
    `a=rtcp:${port}`,
    `a=ice-ufrag:${attribute(lines, 'ice-ufrag')}`,
    `a=ice-pwd:${attribute(lines, 'ice-pwd')}`,
    `a=candidate:1 1 UDP 4261412862 ${publicHost} ${port} typ host`,
    '',
  ].join('\n');
  return { sdp, port };
}
