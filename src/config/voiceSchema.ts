import { Type } from '@sinclair/typebox';
import { integer, text } from './configLeaves.js';

/** The voice service (issue 13): where VOICE_SERVER_UPDATE sends clients; the voice gateway binds the port. */
export const VoiceSchema = Type.Object({
  port: integer(
    {
      env: 'CHORUS_VOICE_PORT',
      description: "voice service port, named in VOICE_SERVER_UPDATE's endpoint (0: the HTTP port + 1)",
    },
    0,
    { minimum: 0, maximum: 65_535 },
  ),
  publicHost: text(
    {
      env: 'CHORUS_VOICE_PUBLIC_HOST',
      description: "host clients reach the voice service at (VOICE_SERVER_UPDATE's endpoint, no scheme)",
      shownDefault: "CHORUS_PUBLIC_URL's host, else 127.0.0.1",
    },
    '',
  ),
  heartbeatIntervalMs: integer(
    {
      env: 'CHORUS_VOICE_HEARTBEAT_INTERVAL_MS',
      description: "voice Hello's heartbeat_interval; a member silent for twice this long is dropped and leaves voice",
    },
    41_250,
    { minimum: 100 },
  ),
  tlsCertPath: text(
    {
      env: 'CHORUS_VOICE_TLS_CERT',
      description: 'PEM certificate file for wss:// on the voice port',
      shownDefault: 'a self-signed one generated at start',
    },
    '',
  ),
  tlsKeyPath: text(
    {
      env: 'CHORUS_VOICE_TLS_KEY',
      description: 'PEM private key file of `CHORUS_VOICE_TLS_CERT`',
      shownDefault: 'the generated one',
    },
    '',
  ),
  rtcPortMin: integer(
    {
      env: 'CHORUS_VOICE_RTC_PORT_MIN',
      description: "lowest UDP port a web client's WebRTC peer connection binds (0 with the max 0: ephemeral ports)",
    },
    0,
    { minimum: 0, maximum: 65_535 },
  ),
  rtcPortMax: integer(
    {
      env: 'CHORUS_VOICE_RTC_PORT_MAX',
      description: 'highest UDP port of `CHORUS_VOICE_RTC_PORT_MIN`; a range needs min < max (one port per web client)',
    },
    0,
    { minimum: 0, maximum: 65_535 },
  ),
});
