import assert from 'node:assert/strict';
import {
  INTERACTION_TOKEN_PREFIX,
  looksLikeInteractionToken,
  signInteractionToken,
  verifyInteractionToken,
} from '../../../src/domain/interactionTokens.js';
import { signToken, verifyToken } from '../../../src/domain/tokens.js';

const SECRET = 'unit-test-secret';
const CLAIMS = {
  interactionId: '1234567890123456789',
  applicationId: '2234567890123456789',
  channelId: '3234567890123456789',
  expiresAtMs: 1_700_000_900_000,
};
const NOW = 1_700_000_000_000;

describe('interaction tokens', () => {
  it('verify to the claims they were signed with, on any node holding the secret', () => {
    const token = signInteractionToken(SECRET, CLAIMS);
    assert.ok(token.startsWith(INTERACTION_TOKEN_PREFIX));
    assert.ok(looksLikeInteractionToken(token));
    assert.deepEqual(verifyInteractionToken(SECRET, token, NOW), CLAIMS);
  });

  it('are refused once expired, under another secret, or with any character changed', () => {
    const token = signInteractionToken(SECRET, CLAIMS);
    assert.equal(verifyInteractionToken(SECRET, token, CLAIMS.expiresAtMs), undefined);
    assert.equal(verifyInteractionToken('other-secret', token, NOW), undefined);
    for (let index = 0; index < token.length; index += 7) {
      const flipped = token[index] === 'A' ? 'B' : 'A';
      const mangled = `${token.slice(0, index)}${flipped}${token.slice(index + 1)}`;
      assert.equal(verifyInteractionToken(SECRET, mangled, NOW), undefined, `changed at ${index}`);
    }
  });

  it('are never user tokens, and user tokens are never interaction tokens', () => {
    const interaction = signInteractionToken(SECRET, CLAIMS);
    assert.equal(verifyToken(SECRET, interaction), undefined);
    const user = signToken(SECRET, { userId: CLAIMS.interactionId, generation: 0, issuedAtMs: NOW });
    assert.equal(verifyInteractionToken(SECRET, user, NOW), undefined);
    assert.equal(looksLikeInteractionToken(user), false);
  });
});
