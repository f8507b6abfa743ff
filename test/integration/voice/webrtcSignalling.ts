/**
 * The web client's side of Discord's WebRTC signalling, written from the documented rules (voice.md §4a, UD
 * "WebRTC Connections"), as plain functions over SDP text so a browser page can mirror them line by line:
 *
 * 1. From the local offer keep only `a=extmap-allow-mixed`, `a=ice-*`, `a=fingerprint`, `a=extmap:` lines and the
 *    `a=rtpmap` lines of opus, VP8 and rtx: that fragment goes in op 1 `data` (and `sdp`).
 * 2. From op 4's `sdp` template read the `c=` address, `a=rtcp` port, ICE credentials, fingerprint and candidate,
 *    and build the remote answer: one m-line per local m-line in offer order, the server `a=setup:passive`,
 *    `a=ice-lite`, and `a=ssrc` lines for the ssrcs op 5 / op 12 named.
 */

const FRAGMENT_LINE = /^a=(extmap-allow-mixed|ice-|fingerprint|extmap:)/;
const FRAGMENT_RTPMAP = /^a=rtpmap:\d+ (opus|VP8|rtx)\//i;

/** Op 1's fragment from a local offer. */
export function fragmentOf(localOffer: string): string {
  const kept = new Set<string>();
  for (const line of localOffer.split(/\r?\n/)) {
    if (FRAGMENT_LINE.test(line) || FRAGMENT_RTPMAP.test(line)) kept.add(line);
  }
  return [...kept].join('\n');
}

/** The fields of op 4's template the answer needs. */
export interface ServerTemplate {
  address: string;
  port: number;
  ufrag: string;
  pwd: string;
  fingerprint: string;
  candidate: string;
}

/** Reads op 4's `sdp`; throws when a required line is missing (the server SDP validation of UD). */
export function readTemplate(sdp: string): ServerTemplate {
  const lines = sdp.split(/\r?\n/);
  const value = (prefix: string): string => {
    const line = lines.find((candidate) => candidate.startsWith(prefix));
    if (line === undefined) throw new Error(`op 4 sdp lacks ${prefix}`);
    return line.slice(prefix.length);
  };
  const connection = value('c=').split(' ');
  if (connection.length !== 3) throw new Error('op 4 sdp c= line must have 3 parts');
  return {
    address: connection[2] ?? '',
    port: Number(value('a=rtcp:')),
    ufrag: value('a=ice-ufrag:'),
    pwd: value('a=ice-pwd:'),
    fingerprint: value('a=fingerprint:'),
    candidate: value('a=candidate:'),
  };
}

interface LocalSection {
  kind: string;
  mid: string;
  formats: string;
  direction: string;
  codecLines: string[];
  extmaps: string[];
}

function sectionsOf(localOffer: string): LocalSection[] {
  const sections: LocalSection[] = [];
  for (const line of localOffer.split(/\r?\n/)) {
    if (line.startsWith('m=')) {
      const parts = line.slice(2).split(' ');
      sections.push({
        kind: parts[0] ?? '',
        mid: String(sections.length),
        formats: parts.slice(3).join(' '),
        direction: 'sendrecv',
        codecLines: [],
        extmaps: [],
      });
      continue;
    }
    const section = sections.at(-1);
    if (!section) continue;
    if (line.startsWith('a=mid:')) section.mid = line.slice('a=mid:'.length);
    else if (/^a=(sendrecv|sendonly|recvonly|inactive)$/.test(line)) section.direction = line.slice(2);
    else if (/^a=(rtpmap|fmtp|rtcp-fb):/.test(line)) section.codecLines.push(line);
    else if (line.startsWith('a=extmap:')) section.extmaps.push(line);
  }
  return sections;
}

const REVERSED: Record<string, string> = { sendonly: 'recvonly', recvonly: 'sendonly' };

/** The remote answer for a local offer, from op 4's template and the remote ssrcs learned per kind. */
export function answerFor(
  localOffer: string,
  template: ServerTemplate,
  remoteSsrcs: { audio: readonly number[]; video: readonly number[] } = { audio: [], video: [] },
): string {
  const sections = sectionsOf(localOffer);
  const session = [
    'v=0',
    'o=- 1420070400000 0 IN IP4 127.0.0.1',
    's=-',
    't=0 0',
    'a=ice-lite',
    `a=group:BUNDLE ${sections.map((section) => section.mid).join(' ')}`,
    'a=msid-semantic: WMS *',
  ];
  const media = sections.flatMap((section) => {
    const ssrcs = section.kind === 'audio' ? remoteSsrcs.audio : section.kind === 'video' ? remoteSsrcs.video : [];
    return [
      `m=${section.kind} ${template.port} UDP/TLS/RTP/SAVPF ${section.formats}`,
      `c=IN IP4 ${template.address}`,
      `a=rtcp:${template.port} IN IP4 ${template.address}`, // werift reads the address of a=rtcp
      `a=ice-ufrag:${template.ufrag}`,
      `a=ice-pwd:${template.pwd}`,
      `a=fingerprint:${template.fingerprint}`,
      `a=candidate:${template.candidate}`,
      'a=end-of-candidates',
      'a=setup:passive',
      `a=mid:${section.mid}`,
      `a=${REVERSED[section.direction] ?? section.direction}`,
      'a=rtcp-mux',
      ...section.extmaps,
      ...section.codecLines,
      ...ssrcs.map((ssrc) => `a=ssrc:${ssrc} cname:chorus`),
    ];
  });
  return [...session, ...media, ''].join('\r\n');
}
