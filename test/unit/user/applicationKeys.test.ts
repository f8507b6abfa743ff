import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { interactionEndpoint } from '../../../actors/user/applicationKeys.js';
import { newApplication } from '../../../actors/user/applicationJson.js';
import type { UserReply } from '../../../proto/gen/chorus/v1/user.js';
import { UnknownEntityError } from '../../../src/domain/errors.js';
import { verifyKeyOf } from '../../../src/domain/interactionSigning.js';
import { createSqliteStores, type SqliteStores } from '../../../src/store/sqlite/createSqliteStores.js';
import { anApplication, nextId } from '../../contract/records.js';

function endpointOf(reply: UserReply) {
  assert.equal(reply.reply?.$case, 'interactionEndpoint');
  return reply.reply.interactionEndpoint;
}

describe('application signing keys', () => {
  let dir: string;
  let stores: SqliteStores;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'chorus-app-keys-'));
    stores = createSqliteStores(join(dir, 'stores.db'));
  });
  after(async () => {
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives a new application a key pair whose public half is its verify_key', () => {
    const app = newApplication(nextId(), nextId(), 'signed');
    assert.ok(app.signing_key);
    assert.equal(verifyKeyOf(app.signing_key), app.verify_key);
  });

  it('answers the endpoint URL and the key that matches verify_key', async () => {
    const app = {
      ...newApplication(nextId(), nextId(), 'bot'),
      extra: { interactions_endpoint_url: 'https://x.test/i' },
    };
    await stores.applications.create(app);
    const endpoint = endpointOf(await interactionEndpoint(stores.applications, { applicationId: app.id }));
    assert.deepEqual(endpoint, {
      applicationId: app.id,
      url: 'https://x.test/i',
      signingKeyPem: app.signing_key,
      verifyKey: app.verify_key,
    });
  });

  it('gives an application stored without a key a real pair once, saved, and keeps it', async () => {
    const legacy = anApplication();
    await stores.applications.create(legacy);
    const first = endpointOf(await interactionEndpoint(stores.applications, { applicationId: legacy.id }));
    assert.equal(first.url, '');
    assert.notEqual(first.verifyKey, legacy.verify_key);
    assert.equal(verifyKeyOf(first.signingKeyPem), first.verifyKey);
    const stored = await stores.applications.get(legacy.id);
    assert.equal(stored?.verify_key, first.verifyKey);
    assert.equal(stored.signing_key, first.signingKeyPem);
    assert.deepEqual(endpointOf(await interactionEndpoint(stores.applications, { applicationId: legacy.id })), first);
  });

  it('answers 404 10002 for an unknown application', async () => {
    await assert.rejects(
      interactionEndpoint(stores.applications, { applicationId: nextId() }),
      (error: unknown) => error instanceof UnknownEntityError && error.discordCode === 10_002,
    );
  });
});
