import assert from 'node:assert/strict';
import { verifyKey } from 'discord-interactions';
import {
  newInteractionKeyPair,
  signatureTimestamp,
  signInteraction,
  verifyKeyOf,
} from '../../../src/domain/interactionSigning.js';

describe('interactionSigning', () => {
  const keys = newInteractionKeyPair();
  const body = JSON.stringify({ type: 2, id: '1', data: { name: 'hello', options: [{ name: 'who', value: 'é' }] } });

  it('publishes the public key as 32 raw bytes in hex, derived from the private key', () => {
    assert.match(keys.verifyKey, /^[0-9a-f]{64}$/);
    assert.equal(verifyKeyOf(keys.signingKeyPem), keys.verifyKey);
    assert.notEqual(newInteractionKeyPair().verifyKey, keys.verifyKey);
  });

  it('signs timestamp + body so that discord-interactions verifyKey accepts it', async () => {
    const timestamp = signatureTimestamp(Date.now());
    const signature = signInteraction(keys.signingKeyPem, timestamp, body);
    assert.match(signature, /^[0-9a-f]{128}$/);
    assert.equal(await verifyKey(body, signature, timestamp, keys.verifyKey), true);
  });

  it('gives a signature that verifyKey refuses for another body, timestamp or key', async () => {
    const timestamp = '1700000000';
    const signature = signInteraction(keys.signingKeyPem, timestamp, body);
    assert.equal(await verifyKey(`${body} `, signature, timestamp, keys.verifyKey), false);
    assert.equal(await verifyKey(body, signature, '1700000001', keys.verifyKey), false);
    assert.equal(await verifyKey(body, signature, timestamp, newInteractionKeyPair().verifyKey), false);
  });

  it('stamps unix seconds as a decimal string', () => {
    assert.equal(signatureTimestamp(1_700_000_000_999), '1700000000');
  });

  it('refuses a private key that is not Ed25519', () => {
    assert.throws(() => verifyKeyOf('not a key'));
  });
});
