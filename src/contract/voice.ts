import { Type, type Static } from '@sinclair/typebox';
import { OPAQUE_MAX_LENGTH } from './discordLimits.js';
import { boundedArray, choices, closedObject, integer, nullable, oneOfTypes, snowflake } from './wireTypes.js';

/** Simulcast streams and codecs a voice client offers: a handful each. */
const MAX_STREAMS = 10;
const MAX_CODECS = 32;
/** Stream kinds and rids ("video", "100"), resolution types ("fixed", "source"): short labels. */
const label = () => Type.String({ maxLength: 32 });
/** A session id, a token, an RTC connection id: opaque. */
const opaque = () => Type.String({ maxLength: OPAQUE_MAX_LENGTH });
/** A WebRTC session description: several kilobytes at most. */
const SDP_MAX_LENGTH = 16_384;

/** Voice gateway op 0 Identify. */
export const VoiceIdentifySchema = closedObject({
  server_id: snowflake(),
  session_id: opaque(),
  token: opaque(),
  user_id: snowflake(),
  // Sent by @discordjs/voice 0.19 and browsers; answered with dave_protocol_version 0 (no DAVE on this server).
  max_dave_protocol_version: Type.Optional(integer()),
  max_secure_frames_version: Type.Optional(integer()),
  channel_id: Type.Optional(snowflake()),
  video: Type.Optional(Type.Boolean()),
  streams: Type.Optional(
    boundedArray(closedObject({ type: label(), rid: label(), quality: integer() }), {
      maxItems: MAX_STREAMS,
    }),
  ),
});
/** Validated VoiceIdentifySchema body. */
export type VoiceIdentifyBody = Static<typeof VoiceIdentifySchema>;

const mediaKind = choices('string', ['audio', 'video']);

const videoStream = closedObject({
  type: mediaKind,
  rid: label(),
  ssrc: integer(),
  active: Type.Boolean(),
  quality: integer(),
  rtx_ssrc: integer(),
  max_bitrate: integer(),
  max_framerate: integer(),
  max_resolution: closedObject({ type: label(), width: integer(), height: integer() }),
});

/** Voice gateway op 12 Video: the sender's SSRCs and simulcast streams. */
export const VoiceVideoSchema = closedObject({
  audio_ssrc: integer(),
  video_ssrc: integer(),
  rtx_ssrc: Type.Optional(integer()),
  user_id: Type.Optional(snowflake()),
  streams: Type.Optional(boundedArray(videoStream, { maxItems: MAX_STREAMS })),
});
/** One simulcast stream in VoiceVideoSchema. */
export type VoiceVideoStreamBody = Static<typeof videoStream>;
/** Validated VoiceVideoSchema body. */
export type VoiceVideoBody = Static<typeof VoiceVideoSchema>;

const codec = closedObject({
  name: choices('string', ['H264', 'VP8', 'VP9', 'opus']),
  type: mediaKind,
  priority: integer(),
  payload_type: integer(),
  rtx_payload_type: Type.Optional(nullable(integer())),
});

/** Voice gateway op 1 Select Protocol; `data` is an {address, mode, port} object or an SDP string. */
export const SelectProtocolSchema = closedObject({
  protocol: choices('string', ['udp', 'webrtc']),
  // One schema for both shapes: properties/required only apply when data is an object.
  data: oneOfTypes(['object', 'string'], {
    properties: { address: Type.String({ maxLength: 64 }), mode: label(), port: integer() },
    required: ['address', 'mode', 'port'],
    additionalProperties: false,
    maxLength: SDP_MAX_LENGTH,
  }),
  sdp: Type.Optional(Type.String({ maxLength: SDP_MAX_LENGTH })),
  codecs: Type.Optional(boundedArray(codec, { maxItems: MAX_CODECS })),
  rtc_connection_id: Type.Optional(opaque()),
});
/** Validated SelectProtocolSchema body. */
export type SelectProtocolBody = Static<typeof SelectProtocolSchema>;

const header = () => Type.String({ maxLength: OPAQUE_MAX_LENGTH });

/** Response of a telemetry transport request (Sentry-style `retry-after` and rate-limit headers). */
export const TransportMakeRequestResponse = closedObject({
  statusCode: Type.Optional(integer()),
  // Any header may appear: the map is bounded like mapOf's, its two named headers required.
  headers: Type.Optional({
    ...closedObject({ 'retry-after': nullable(header()), 'x-sentry-rate-limits': nullable(header()) }),
    additionalProperties: nullable(header()),
    maxProperties: 100,
    propertyNames: { type: 'string', maxLength: 256 },
  }),
});
/** Validated TransportMakeRequestResponse value. */
export type TransportMakeRequestResponse = Static<typeof TransportMakeRequestResponse>;
