/** One codec a web client offers in op 1 `codecs` (payload types as the browser chose them). */
export interface OfferedCodec {
  readonly name: string;
  readonly type: 'audio' | 'video';
  readonly priority: number;
  readonly payload_type: number;
  readonly rtx_payload_type?: number | null;
}

/** The media this server forwards for one web client, with that client's payload types. */
export interface NegotiatedCodecs {
  readonly audio: { readonly payloadType: number };
  readonly video:
    { readonly name: 'VP8' | 'H264'; readonly payloadType: number; readonly rtxPayloadType?: number } | undefined;
}

/** The client's offer as werift should read it, and the codecs it names. */
export interface ClientOffer {
  readonly sdp: string;
  readonly codecs: NegotiatedCodecs;
}

/** A fragment that cannot describe a peer: answered with close 4002. */
export class MalformedFragment extends Error {}

/** ICE ufrag/pwd characters (RFC 8839 ice-char) and lengths. */
const ICE_UFRAG = /^[A-Za-z0-9+/]{4,256}$/;
const ICE_PWD = /^[A-Za-z0-9+/]{22,256}$/;
const FINGERPRINT = /^(sha-1|sha-224|sha-256|sha-384|sha-512) ([0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2})+)$/;
const EXTMAP = /^a=extmap:(\d{1,2})(\/(sendrecv|sendonly|recvonly|inactive))? ([\x21-\x7e]{1,256})$/;
const RTPMAP = /^a=rtpmap:(\d{1,3}) ([A-Za-z0-9-]{1,32})\/(\d{1,6})(\/\d{1,2})?$/;
/** Forwarded video codecs in the order they are preferred when a client offers both. */
const VIDEO_CODECS = ['VP8', 'H264'] as const;
/** The H264 profile browsers all decode (constrained baseline), packetization mode 1. */
const H264_FMTP = 'level-asymmetry-allowed=1;packetization-mode=1;profile-level-id=42e01f';

function isPayloadType(value: number): boolean {
  return Number.isInteger(value) && value >= 0 && value <= 127;
}

interface FragmentLines {
  ufrag: string;
  pwd: string;
  fingerprint: string;
  extmaps: string[];
  rtpmaps: { payloadType: number; name: string }[];
}

/** Reads the lines Discord's web client keeps in its fragment (ice, fingerprint, extmap, rtpmap); others are skipped. */
function readFragment(fragment: string): FragmentLines {
  let ufrag: string | undefined;
  let pwd: string | undefined;
  let fingerprint: string | undefined;
  const extmaps = new Map<string, string>();
  const rtpmaps: FragmentLines['rtpmaps'] = [];
  for (const raw of fragment.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('a=ice-ufrag:')) ufrag ??= line.slice('a=ice-ufrag:'.length);
    else if (line.startsWith('a=ice-pwd:')) pwd ??= line.slice('a=ice-pwd:'.length);
    else if (line.startsWith('a=fingerprint:')) fingerprint ??= line.slice('a=fingerprint:'.length);
    else if (line.startsWith('a=extmap:')) {
      const match = EXTMAP.exec(line);
      if (match?.[1] !== undefined && match[4] !== undefined) extmaps.set(match[4], `a=extmap:${match[1]} ${match[4]}`);
    } else if (line.startsWith('a=rtpmap:')) {
      const match = RTPMAP.exec(line);
      if (match?.[1] !== undefined && match[2] !== undefined) {
        rtpmaps.push({ payloadType: Number(match[1]), name: match[2] });
      }
    }
  }
  if (ufrag === undefined || !ICE_UFRAG.test(ufrag)) throw new MalformedFragment('fragment needs a valid a=ice-ufrag');
  if (pwd === undefined || !ICE_PWD.test(pwd)) throw new MalformedFragment('fragment needs a valid a=ice-pwd');
  if (fingerprint === undefined || !FINGERPRINT.test(fingerprint)) {
    throw new MalformedFragment('fragment needs a valid a=fingerprint');
  }
  return { ufrag, pwd, fingerprint, extmaps: [...extmaps.values()], rtpmaps };
}

/** Opus and one video codec with the client's payload types: from op 1 `codecs`, else from the fragment's rtpmaps. */
function negotiate(codecs: readonly OfferedCodec[] | undefined, lines: FragmentLines): NegotiatedCodecs {
  const offered: OfferedCodec[] =
    codecs && codecs.length > 0
      ? [...codecs]
      : lines.rtpmaps.map((map, index) => ({
          name: map.name,
          type: map.name.toLowerCase() === 'opus' ? 'audio' : 'video',
          priority: index,
          payload_type: map.payloadType,
          rtx_payload_type: lines.rtpmaps.find((rtx) => rtx.name.toLowerCase() === 'rtx')?.payloadType ?? null,
        }));
  for (const codec of offered) {
    if (!isPayloadType(codec.payload_type)) throw new MalformedFragment('codec payload types are 0..127');
  }
  const opus = offered.find((codec) => codec.name.toLowerCase() === 'opus');
  if (!opus) throw new MalformedFragment('the client offers no opus');
  const byPriority = offered.filter((codec) => codec.type === 'video').sort((a, b) => a.priority - b.priority);
  const video = byPriority.find((codec) => (VIDEO_CODECS as readonly string[]).includes(codec.name.toUpperCase()));
  const rtx = video?.rtx_payload_type ?? undefined;
  return {
    audio: { payloadType: opus.payload_type },
    video: video && {
      name: video.name.toUpperCase() as 'VP8' | 'H264',
      payloadType: video.payload_type,
      ...(rtx !== undefined && isPayloadType(rtx) && rtx !== video.payload_type ? { rtxPayloadType: rtx } : {}),
    },
  };
}

/**
 * Rebuilds the full offer a web client's SDP fragment stands for: one audio m-line (mid 0) and, when the client
 * offers VP8 or H264, one video m-line (mid 1), bundled, with the client's ICE credentials, fingerprint, header
 * extensions and payload types. The client is the DTLS client (`setup:active`), as Discord's web client expects.
 */
export function clientOffer(fragment: string, codecs: readonly OfferedCodec[] | undefined): ClientOffer {
  const lines = readFragment(fragment);
  const negotiated = negotiate(codecs, lines);
  const transport = [
    'c=IN IP4 0.0.0.0',
    'a=rtcp:9 IN IP4 0.0.0.0',
    `a=ice-ufrag:${lines.ufrag}`,
    `a=ice-pwd:${lines.pwd}`,
    `a=fingerprint:${lines.fingerprint}`,
    'a=setup:active',
  ];
  const audioPt = negotiated.audio.payloadType;
  const audio = [
    `m=audio 9 UDP/TLS/RTP/SAVPF ${audioPt}`,
    ...transport,
    'a=mid:0',
    ...lines.extmaps,
    'a=sendrecv',
    'a=rtcp-mux',
    `a=rtpmap:${audioPt} opus/48000/2`,
    `a=fmtp:${audioPt} minptime=10;useinbandfec=1`,
  ];
  const video: string[] = [];
  const { video: chosen } = negotiated;
  if (chosen) {
    const rtx = chosen.rtxPayloadType;
    const pt = chosen.payloadType;
    video.push(
      `m=video 9 UDP/TLS/RTP/SAVPF ${pt}${rtx === undefined ? '' : ` ${rtx}`}`,
      ...transport,
      'a=mid:1',
      ...lines.extmaps,
      'a=sendrecv',
      'a=rtcp-mux',
      `a=rtpmap:${pt} ${chosen.name}/90000`,
      ...(chosen.name === 'H264' ? [`a=fmtp:${pt} ${H264_FMTP}`] : []),
      `a=rtcp-fb:${pt} nack`,
      `a=rtcp-fb:${pt} nack pli`,
      `a=rtcp-fb:${pt} ccm fir`,
      ...(rtx === undefined ? [] : [`a=rtpmap:${rtx} rtx/90000`, `a=fmtp:${rtx} apt=${pt}`]),
    );
  }
  const session = ['v=0', 'o=- 1 2 IN IP4 127.0.0.1', 's=-', 't=0 0', `a=group:BUNDLE 0${chosen ? ' 1' : ''}`];
  return { sdp: [...session, ...audio, ...video, ''].join('\r\n'), codecs: negotiated };
}
