import assert from 'node:assert/strict';
import { hashPassword, verifyPassword } from '../../../src/domain/passwords.js';
import { signToken, tokenFromHeader, verifyToken } from '../../../src/domain/tokens.js';

describe('tokens', () => {
  const claims = { userId: '175928847299117063', generation: 3, issuedAtMs: 1_700_000_000_000 };

  it('round-trips the claims of a token it signed', () => {
    const { revocationKey, ...verified } = verifyToken('secret', signToken('secret', claims)) ?? {};
    assert.deepEqual(verified, claims);
    assert.equal(typeof revocationKey, 'string');
  });

  it('starts with the base64 user id, as Discord clients expect', () => {
    const token = signToken('secret', claims);
    assert.equal(Buffer.from(token.split('.')[0] ?? '', 'base64').toString(), claims.userId);
  });

  it('refuses a token signed with another secret or altered', () => {
    const token = signToken('secret', claims);
    assert.equal(verifyToken('other', token), undefined);
    const [, meta, mac] = token.split('.');
    const forged = `${Buffer.from('1').toString('base64url')}.${meta ?? ''}.${mac ?? ''}`;
    assert.equal(verifyToken('secret', forged), undefined);
    assert.equal(verifyToken('secret', 'not-a-token'), undefined);
  });

  it('still refuses a token under another secret once it verified under its own', () => {
    const token = signToken('secret', { ...claims, issuedAtMs: claims.issuedAtMs + 7 });
    assert.equal(verifyToken('secret', token)?.userId, claims.userId);
    assert.equal(verifyToken('secret', token)?.userId, claims.userId);
    assert.equal(verifyToken('other', token), undefined);
  });

  it('refuses every other spelling of a token it signed', () => {
    let token = signToken('secret', claims);
    // A token with both URL-safe characters, so the standard-alphabet spelling differs from it.
    for (let ms = 0; !/-/.test(token) || !/_/.test(token); ms += 1) {
      token = signToken('secret', { ...claims, issuedAtMs: claims.issuedAtMs + ms });
    }
    const last = token.at(-1) ?? '';
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const spellings = [
      `${token}=`,
      token.replace(/-/g, '+').replace(/_/g, '/'),
      `${token.slice(0, -1)}${alphabet[alphabet.indexOf(last) ^ 1] ?? ''}`,
      token.replace('.', '=.'),
      ` ${token}`,
    ];
    assert.ok(verifyToken('secret', token));
    for (const spelled of spellings) assert.equal(verifyToken('secret', spelled), undefined, spelled);
  });

  it('gives every verified token a revocation key of its own', () => {
    const first = verifyToken('secret', signToken('secret', claims));
    const second = verifyToken('secret', signToken('secret', { ...claims, issuedAtMs: claims.issuedAtMs + 1 }));
    assert.ok(first && second);
    assert.notEqual(first.revocationKey, second.revocationKey);
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
