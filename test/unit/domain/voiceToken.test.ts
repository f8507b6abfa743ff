import assert from 'node:assert/strict';
import {
  issueVoiceToken,
  newVoiceNonce,
  verifyVoiceToken,
  VOICE_TOKEN_TTL_MS,
} from '../../../src/domain/voiceToken.js';

describe('voice tokens', () => {
  const now = 1_700_000_000_000;
  const claims = {
    userId: '175928847299117063',
    sessionId: '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
    guildId: '175928847299117064',
    channelId: '175928847299117065',
    nonce: newVoiceNonce(),
  };

  it('round-trips the claims of a token it issued', () => {
    assert.deepEqual(verifyVoiceToken('secret', issueVoiceToken('secret', claims, now), now + 1), claims);
  });

  it('issues a different token for each nonce, so each can be used once', () => {
    const other = { ...claims, nonce: newVoiceNonce() };
    assert.notEqual(issueVoiceToken('secret', claims, now), issueVoiceToken('secret', other, now));
  });

  it('refuses a token past its lifetime', () => {
    const token = issueVoiceToken('secret', claims, now);
    assert.ok(verifyVoiceToken('secret', token, now + VOICE_TOKEN_TTL_MS - 1));
    assert.equal(verifyVoiceToken('secret', token, now + VOICE_TOKEN_TTL_MS), undefined);
    const short = issueVoiceToken('secret', claims, now, 1_000);
    assert.equal(verifyVoiceToken('secret', short, now + 1_000), undefined);
  });

  it('refuses a token signed with another secret', () => {
    assert.equal(verifyVoiceToken('other', issueVoiceToken('secret', claims, now), now), undefined);
  });

  it('refuses a token whose claims were altered or forged', () => {
    const [, mac] = issueVoiceToken('secret', claims, now).split('.');
    const text = `voice:1:${claims.sessionId}:${claims.guildId}:${claims.channelId}:${claims.nonce}:${now + 60_000}`;
    assert.equal(verifyVoiceToken('secret', `${Buffer.from(text).toString('base64url')}.${mac ?? ''}`, now), undefined);
    assert.equal(verifyVoiceToken('secret', 'not-a-token', now), undefined);
    assert.equal(verifyVoiceToken('secret', '', now), undefined);
    assert.equal(verifyVoiceToken('secret', 'a.b.c', now), undefined);
  });

  it('is not a user token or an interaction token: its key is derived for voice alone', () => {
    const token = issueVoiceToken('secret', claims, now);
    assert.ok(
      Buffer.from(token.split('.')[0] ?? '', 'base64url')
        .toString()
        .startsWith('voice:'),
    );
  });

  it('refuses to issue claims that could not be read back', () => {
    assert.throws(() => issueVoiceToken('secret', { ...claims, sessionId: 'a:b' }, now), RangeError);
    assert.throws(() => issueVoiceToken('secret', { ...claims, channelId: 'x' }, now), RangeError);
  });
});
