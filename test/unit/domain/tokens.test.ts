import assert from 'node:assert/strict';
import { hashPassword, verifyPassword } from '../../../src/domain/passwords.js';
import { signToken, tokenFromHeader, tokenUserId, verifyToken } from '../../../src/domain/tokens.js';

describe('tokens', () => {
  const claims = { userId: '175928847299117063', generation: 3, issuedAtMs: 1_700_000_000_000 };

  it('round-trips the claims of a token it signed', () => {
    assert.deepEqual(verifyToken('secret', signToken('secret', claims)), claims);
  });

  it('starts with the base64 user id, as Discord clients expect', () => {
    const token = signToken('secret', claims);
    assert.equal(Buffer.from(token.split('.')[0] ?? '', 'base64').toString(), claims.userId);
    assert.equal(tokenUserId(token), claims.userId);
  });

  it('refuses a token signed with another secret or altered', () => {
    const token = signToken('secret', claims);
    assert.equal(verifyToken('other', token), undefined);
    const [, meta, mac] = token.split('.');
    const forged = `${Buffer.from('1').toString('base64url')}.${meta ?? ''}.${mac ?? ''}`;
    assert.equal(verifyToken('secret', forged), undefined);
    assert.equal(verifyToken('secret', 'not-a-token'), undefined);
  });

  it('accepts the header bare, as Bearer and as Bot', () => {
    assert.equal(tokenFromHeader('abc.def.ghi'), 'abc.def.ghi');
    assert.equal(tokenFromHeader('Bearer abc.def.ghi'), 'abc.def.ghi');
    assert.equal(tokenFromHeader('Bot abc.def.ghi'), 'abc.def.ghi');
    assert.equal(tokenFromHeader(''), undefined);
    assert.equal(tokenFromHeader(undefined), undefined);
  });
});

describe('passwords', () => {
  it('verifies the password it hashed and refuses another', async () => {
    const hash = await hashPassword('correct horse', 1024);
    assert.match(hash, /^scrypt\$1024\$/);
    assert.equal(await verifyPassword('correct horse', hash), true);
    assert.equal(await verifyPassword('wrong horse', hash), false);
  });

  it('salts each hash', async () => {
    assert.notEqual(await hashPassword('same', 1024), await hashPassword('same', 1024));
  });
});
