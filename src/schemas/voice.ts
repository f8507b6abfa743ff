import { arr, bool, choices, int, nullable, obj, oneOfTypes, snowflake, str } from './builders.js';
import { OPAQUE_MAX_LENGTH } from './discordLimits.js';

/** Simulcast streams and codecs a voice client offers: a handful each. */
const MAX_STREAMS = 10;
const MAX_CODECS = 32;
/** Stream kinds and rids ("video", "100"), resolution types ("fixed", "source"): short labels. */
const label = () => str({ maxLength: 32 });
/** A session id, a token, an RTC connection id: opaque. */
const opaque = () => str({ maxLength: OPAQUE_MAX_LENGTH });
/** A WebRTC session description: several kilobytes at most. */
const SDP_MAX_LENGTH = 16_384;

/** Voice gateway op 0 Identify. */
export const VoiceIdentifySchema = obj(
  {
    server_id: snowflake(),
    session_id: opaque(),
    token: opaque(),
    user_id: snowflake(),
    video: bool(),
    streams: arr(obj({ type: label(), rid: label(), quality: int() }, ['type', 'rid', 'quality']), {
      maxItems: MAX_STREAMS,
    }),
  },
  ['server_id', 'session_id', 'token', 'user_id'],
);
/** Validated VoiceIdentifySchema body. */
export interface VoiceIdentifyBody {
  server_id: string;
  session_id: string;
  token: string;
  user_id: string;
  video?: boolean;
  streams?: { type: string; rid: string; quality: number }[];
}

const mediaKind = choices('string', ['audio', 'video']);

const videoStream = obj(
  {
    type: mediaKind,
    rid: label(),
    ssrc: int(),
    active: bool(),
    quality: int(),
    rtx_ssrc: int(),
    max_bitrate: int(),
    max_framerate: int(),
    max_resolution: obj({ type: label(), width: int(), height: int() }, ['type', 'width', 'height']),
  },
  ['type', 'rid', 'ssrc', 'active', 'quality', 'rtx_ssrc', 'max_bitrate', 'max_framerate', 'max_resolution'],
);

/** Voice gateway op 12 Video: the sender's SSRCs and simulcast streams. */
export const VoiceVideoSchema = obj(
  {
    audio_ssrc: int(),
    video_ssrc: int(),
    rtx_ssrc: int(),
    user_id: snowflake(),
    streams: arr(videoStream, { maxItems: MAX_STREAMS }),
  },
  ['audio_ssrc', 'video_ssrc'],
);
/** One simulcast stream in VoiceVideoSchema. */
export interface VoiceVideoStreamBody {
  type: 'audio' | 'video';
  rid: string;
  ssrc: number;
  active: boolean;
  quality: number;
  rtx_ssrc: number;
  max_bitrate: number;
  max_framerate: number;
  max_resolution: { type: string; width: number; height: number };
}
/** Validated VoiceVideoSchema body. */
export interface VoiceVideoBody {
  audio_ssrc: number;
  video_ssrc: number;
  rtx_ssrc?: number;
  user_id?: string;
  streams?: VoiceVideoStreamBody[];
}

const codec = obj(
  {
    name: choices('string', ['H264', 'VP8', 'VP9', 'opus']),
    type: mediaKind,
    priority: int(),
    payload_type: int(),
    rtx_payload_type: nullable(int()),
  },
  ['name', 'type', 'priority', 'payload_type'],
);

/** Voice gateway op 1 Select Protocol; `data` is an {address, mode, port} object or an SDP string. */
export const SelectProtocolSchema = obj(
  {
    protocol: choices('string', ['udp', 'webrtc']),
    // One schema for both shapes: properties/required only apply when data is an object.
    data: oneOfTypes(['object', 'string'], {
      properties: { address: str({ maxLength: 64 }), mode: label(), port: int() },
      required: ['address', 'mode', 'port'],
      additionalProperties: false,
      maxLength: SDP_MAX_LENGTH,
    }),
    sdp: str({ maxLength: SDP_MAX_LENGTH }),
    codecs: arr(codec, { maxItems: MAX_CODECS }),
    rtc_connection_id: opaque(),
  },
  ['protocol', 'data'],
);
/** Validated SelectProtocolSchema body. */
export interface SelectProtocolBody {
  protocol: 'udp' | 'webrtc';
  data: { address: string; mode: string; port: number } | string;
  sdp?: string;
  codecs?: {
    name: 'H264' | 'VP8' | 'VP9' | 'opus';
    type: 'audio' | 'video';
    priority: number;
    payload_type: number;
    rtx_payload_type?: number | null;
  }[];
  rtc_connection_id?: string;
}

const header = () => str({ maxLength: OPAQUE_MAX_LENGTH });

/** Response of a telemetry transport request (Sentry-style `retry-after` and rate-limit headers). */
export const TransportMakeRequestResponse = obj({
  statusCode: int(),
  // Any header may appear: the map is bounded like mapOf's, its two named headers required.
  headers: {
    ...obj({ 'retry-after': nullable(header()), 'x-sentry-rate-limits': nullable(header()) }, [
      'retry-after',
      'x-sentry-rate-limits',
    ]),
    additionalProperties: nullable(header()),
    maxProperties: 100,
    propertyNames: { type: 'string', maxLength: 256 },
  },
});
/** Validated TransportMakeRequestResponse value. */
export interface TransportMakeRequestResponse {
  statusCode?: number;
  headers?: { 'retry-after': string | null; 'x-sentry-rate-limits': string | null; [name: string]: string | null };
}
