import assert from 'node:assert/strict';
import {
  base32Decode,
  base32Encode,
  generateBackupCodes,
  generateTotpSecret,
  totpCode,
  verifyTotp,
} from '../../../actors/user/totp.js';

// RFC 6238 appendix B, SHA-1 rows: the 20-byte ASCII key "12345678901234567890", 8 digits.
const RFC_KEY = Buffer.from('12345678901234567890', 'ascii');
const RFC_VECTORS: readonly [number, string][] = [
  [59, '94287082'],
  [1_111_111_109, '07081804'],
  [1_111_111_111, '14050471'],
  [1_234_567_890, '89005924'],
  [2_000_000_000, '69279037'],
  [20_000_000_000, '65353130'],
];

describe('totp', () => {
  describe('totpCode', () => {
    for (const [seconds, expected] of RFC_VECTORS) {
      it(`matches RFC 6238 at T=${seconds}`, () => {
        assert.equal(totpCode(RFC_KEY, seconds * 1000, 30, 8), expected);
      });
    }

    it('gives the last six digits by default', () => {
      assert.equal(totpCode(RFC_KEY, 59_000), '287082');
    });
  });

  describe('base32', () => {
    it('encodes the RFC 4648 test vectors without padding', () => {
      assert.equal(base32Encode(Buffer.from('f')), 'MY');
      assert.equal(base32Encode(Buffer.from('fooba')), 'MZXW6YTB');
      assert.equal(base32Encode(Buffer.from('foobar')), 'MZXW6YTBOI');
    });

    it('decodes case-insensitively, ignoring spaces and padding', () => {
      assert.equal(base32Decode('mzxw 6ytb oi======')?.toString(), 'foobar');
    });

    it('refuses characters outside the alphabet', () => {
      assert.equal(base32Decode('MZXW1'), undefined);
    });

    it('round-trips a generated secret of 160 bits', () => {
      const secret = generateTotpSecret();
      assert.equal(base32Decode(secret)?.length, 20);
      assert.equal(base32Encode(base32Decode(secret) ?? Buffer.alloc(0)), secret);
    });
  });

  describe('verifyTotp', () => {
    const secret = base32Encode(RFC_KEY);
    const now = 1_700_000_000_000;

    it('accepts the current code and one step either side', () => {
      for (const drift of [-30_000, 0, 30_000]) {
        assert.equal(verifyTotp(secret, totpCode(RFC_KEY, now + drift), now), true);
      }
    });

    it('refuses a code two steps away', () => {
      assert.equal(verifyTotp(secret, totpCode(RFC_KEY, now + 60_000), now), false);
    });

    it('refuses malformed codes and secrets', () => {
      assert.equal(verifyTotp(secret, '12345', now), false);
      assert.equal(verifyTotp(secret, 'abcdef', now), false);
      assert.equal(verifyTotp('!!!', totpCode(RFC_KEY, now), now), false);
    });
  });

  describe('generateBackupCodes', () => {
    it('issues ten unused codes of eight hex digits', () => {
      const codes = generateBackupCodes();
      assert.equal(codes.length, 10);
      for (const entry of codes) {
        assert.match(entry.code, /^[0-9a-f]{8}$/);
        assert.equal(entry.consumed, false);
      }
    });
  });
});
