import { createCipheriv, createDecipheriv } from 'node:crypto';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { VoiceEncryptionMode } from './voiceProtocol.js';

/** RTP fixed header, AEAD tag and trailing nonce counter sizes of Discord's rtpsize modes. */
const RTP_FIXED_HEADER = 12;
const TAG_BYTES = 16;
const NONCE_COUNTER_BYTES = 4;
const EXTENSION_PREAMBLE = 4;

/**
 * Length of the part of an RTP packet left in clear and authenticated ("rtpsize"): the fixed header, the CSRCs and,
 * when the X bit is set, the 4-byte extension preamble (the extension body is encrypted with the payload).
 * Undefined when the packet is too short to hold that header.
 */
export function rtpsizeHeaderLength(packet: Uint8Array): number | undefined {
  if (packet.length < RTP_FIXED_HEADER) return undefined;
  const first = packet[0] ?? 0;
  const csrcCount = first & 0x0f;
  const hasExtension = (first & 0x10) !== 0;
  const length = RTP_FIXED_HEADER + 4 * csrcCount + (hasExtension ? EXTENSION_PREAMBLE : 0);
  return packet.length < length ? undefined : length;
}

/** The AEAD nonce of a mode: the 4-byte counter at its start, zeros after (12 bytes for AES-GCM, 24 for XChaCha). */
export function rtpsizeNonce(mode: VoiceEncryptionMode, counter: Uint8Array): Buffer {
  const nonce = Buffer.alloc(mode === VoiceEncryptionMode.aesGcm ? 12 : 24);
  nonce.set(counter.subarray(0, NONCE_COUNTER_BYTES));
  return nonce;
}

/**
 * Decrypts an rtpsize packet (`header ‖ ciphertext ‖ tag16 ‖ nonce4`) with a member's key and mode; returns the
 * clear header and the plaintext (extension body and payload), or undefined for a short or forged packet.
 */
export function openRtpsize(
  mode: VoiceEncryptionMode,
  key: Uint8Array,
  packet: Uint8Array,
): { header: Uint8Array; plaintext: Uint8Array } | undefined {
  const headerLength = rtpsizeHeaderLength(packet);
  if (headerLength === undefined || packet.length < headerLength + TAG_BYTES + NONCE_COUNTER_BYTES) return undefined;
  const header = packet.subarray(0, headerLength);
  const counter = packet.subarray(packet.length - NONCE_COUNTER_BYTES);
  const sealed = packet.subarray(headerLength, packet.length - NONCE_COUNTER_BYTES);
  const nonce = rtpsizeNonce(mode, counter);
  try {
    if (mode === VoiceEncryptionMode.xchacha) {
      return { header, plaintext: xchacha20poly1305(key, nonce, header).decrypt(sealed) };
    }
    const decipher = createDecipheriv('aes-256-gcm', key, nonce);
    decipher.setAAD(header);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    const body = decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES));
    return { header, plaintext: Buffer.concat([body, decipher.final()]) };
  } catch {
    return undefined;
  }
}

/** Encrypts a plaintext under a clear rtpsize header with a member's key, mode and 32-bit nonce counter. */
export function sealRtpsize(
  mode: VoiceEncryptionMode,
  key: Uint8Array,
  header: Uint8Array,
  plaintext: Uint8Array,
  counter: number,
): Buffer {
  const counterBytes = Buffer.alloc(NONCE_COUNTER_BYTES);
  counterBytes.writeUInt32BE(counter >>> 0);
  const nonce = rtpsizeNonce(mode, counterBytes);
  if (mode === VoiceEncryptionMode.xchacha) {
    const sealed = xchacha20poly1305(key, nonce, header).encrypt(plaintext);
    return Buffer.concat([header, sealed, counterBytes]);
  }
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(header);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([header, body, cipher.getAuthTag(), counterBytes]);
}
