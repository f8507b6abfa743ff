/** Voice gateway opcodes (Discord's voice opcode table). */
export const VoiceOp = {
  identify: 0,
  selectProtocol: 1,
  ready: 2,
  heartbeat: 3,
  sessionDescription: 4,
  speaking: 5,
  heartbeatAck: 6,
  resume: 7,
  hello: 8,
  resumed: 9,
  clientsConnect: 11,
  video: 12,
  clientDisconnect: 13,
  mediaSinkWants: 15,
  backendVersion: 16,
  clientFlags: 18,
  clientPlatform: 20,
} as const;

/** Voice gateway close codes, as Discord documents them. */
export const VoiceCloseCode = {
  unknownOpcode: 4001,
  decodeError: 4002,
  notAuthenticated: 4003,
  authenticationFailed: 4004,
  alreadyAuthenticated: 4005,
  sessionNoLongerValid: 4006,
  sessionTimeout: 4009,
  /** Discord's "voice server crashed": a failure on our side (e.g. no free RTC port); the client may try again. */
  serverCrashed: 4015,
  unknownProtocol: 4012,
  unknownEncryptionMode: 4016,
} as const;

/** The transport encryption modes offered in Ready, preferred first; both are Discord's non-deprecated rtpsize AEADs. */
export const VoiceEncryptionMode = {
  aesGcm: 'aead_aes256_gcm_rtpsize',
  xchacha: 'aead_xchacha20_poly1305_rtpsize',
} as const;
/** One of VoiceEncryptionMode. */
export type VoiceEncryptionMode = (typeof VoiceEncryptionMode)[keyof typeof VoiceEncryptionMode];

/** Whether a client-chosen mode string is one this server offers. */
export function isVoiceEncryptionMode(mode: unknown): mode is VoiceEncryptionMode {
  return mode === VoiceEncryptionMode.aesGcm || mode === VoiceEncryptionMode.xchacha;
}

/** Voice gateway versions served; a client that names none (Spacebar's web client) gets v4 framing (no seq). */
export const VOICE_VERSIONS = { min: 4, max: 8, withoutQuery: 4 } as const;
