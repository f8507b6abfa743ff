import assert from 'node:assert/strict';
import { verifyKey } from 'discord-interactions';
import { interactionEndpointOf } from '../../../src/http/interactions/interactionEndpoint.js';
import { InteractionDeliveryError, postSignedInteraction } from '../../../src/http/interactions/signedDelivery.js';
import { startInteractionsEndpoint, type InteractionsEndpoint } from '../../support/interactionsEndpoint.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { call, fieldCodes, type ApiApplication, type ApiError } from './httpClient.js';

/** The application fields these tests read. */
interface SignedApplication extends ApiApplication {
  interactions_endpoint_url: string | null;
}

const LOOPBACK = { outboundAllowPrivate: ['loopback'] };

describe('HTTP interactions signed with Ed25519', () => {
  let server: TestServer;
  let base: string;
  let owner: TestUser;
  let stranger: TestUser;
  let endpoint: InteractionsEndpoint;

  before(async () => {
    // Tests reach their endpoint on 127.0.0.1, which Chorus refuses unless told otherwise.
    server = await startTestServer({ CHORUS_OUTBOUND_ALLOW_PRIVATE: 'loopback' });
    base = server.api;
    owner = await registerUser(base, 'signer');
    stranger = await registerUser(base, 'stranger');
    endpoint = await startInteractionsEndpoint();
  });
  after(async () => {
    await endpoint.close();
    await server.stop();
  });
  beforeEach(() => {
    endpoint.mode = 'verifying';
    endpoint.received.length = 0;
  });

  /** A new application of `owner`, with the endpoint checking signatures against its verify_key. */
  const createApp = async (): Promise<SignedApplication> => {
    const created = await call<SignedApplication>(base, 'POST', '/applications', {
      auth: owner.token,
      body: { name: 'http bot' },
    });
    assert.equal(created.status, 201);
    endpoint.publicKey = created.body.verify_key;
    return created.body;
  };
  const setUrl = (applicationId: string, url: string, auth = owner.token) =>
    call<SignedApplication & ApiError>(base, 'PATCH', `/applications/${applicationId}`, {
      auth,
      body: { interactions_endpoint_url: url },
    });
  const savedUrl = async (applicationId: string): Promise<string | null> =>
    (await call<SignedApplication>(base, 'GET', `/applications/${applicationId}`, { auth: owner.token })).body
      .interactions_endpoint_url;

  it('saves an endpoint that answers a signed PING with PONG and refuses a forged one', async () => {
    const app = await createApp();
    const answer = await setUrl(app.id, endpoint.url);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(answer.body.interactions_endpoint_url, endpoint.url);
    assert.equal(await savedUrl(app.id), endpoint.url);

    const [ping, forged] = endpoint.received;
    assert.ok(ping && forged, 'the check posts twice');
    assert.equal(ping.verified, true);
    assert.equal(forged.verified, false);
    const pingBody = JSON.parse(ping.body) as { type: number; application_id: string };
    assert.equal(pingBody.type, 1);
    assert.equal(pingBody.application_id, app.id);
    assert.equal(ping.headers['content-type'], 'application/json');
    assert.equal(ping.headers['user-agent'], 'Discord-Interactions/1.0 (+https://discord.com)');
    assert.match(String(ping.headers['x-signature-timestamp']), /^\d{10}$/);
    assert.match(String(ping.headers['x-signature-ed25519']), /^[0-9a-f]{128}$/);
  });

  it('refuses an endpoint that accepts a wrong signature, and saves nothing', async () => {
    const app = await createApp();
    endpoint.mode = 'accepting';
    const answer = await setUrl(app.id, endpoint.url);
    assert.equal(answer.status, 400);
    assert.equal(answer.body.code, 50_035);
    assert.deepEqual(fieldCodes(answer.body, 'interactions_endpoint_url'), [
      'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
    ]);
    assert.equal(endpoint.received.length, 2);
    assert.equal(await savedUrl(app.id), null);
  });

  it('refuses an endpoint that answers a PING with something else than PONG', async () => {
    const app = await createApp();
    endpoint.mode = 'wrongPong';
    const answer = await setUrl(app.id, endpoint.url);
    assert.equal(answer.status, 400);
    assert.deepEqual(fieldCodes(answer.body, 'interactions_endpoint_url'), [
      'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
    ]);
    assert.equal(await savedUrl(app.id), null);
  });

  it('refuses an endpoint nobody answers at, and a URL that is not http(s)', async () => {
    const app = await createApp();
    const closed = await startInteractionsEndpoint();
    await closed.close();
    const unreachable = await setUrl(app.id, closed.url);
    assert.equal(unreachable.status, 400);
    assert.deepEqual(fieldCodes(unreachable.body, 'interactions_endpoint_url'), [
      'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
    ]);
    const notHttp = await setUrl(app.id, 'ftp://127.0.0.1/interactions');
    assert.deepEqual(fieldCodes(notHttp.body, 'interactions_endpoint_url'), ['URL_TYPE_INVALID_URL']);
    assert.equal(await savedUrl(app.id), null);
  });

  it('posts nothing for someone who does not own the application (404 10002 first)', async () => {
    const app = await createApp();
    const answer = await setUrl(app.id, endpoint.url, stranger.token);
    assert.equal(answer.status, 404);
    assert.equal(answer.body.code, 10_002);
    assert.equal(endpoint.received.length, 0);
  });

  it('clears the endpoint with an empty string, without any check', async () => {
    const app = await createApp();
    assert.equal((await setUrl(app.id, endpoint.url)).status, 200);
    endpoint.received.length = 0;
    const cleared = await setUrl(app.id, '');
    assert.equal(cleared.status, 200);
    assert.equal(cleared.body.interactions_endpoint_url, null);
    assert.equal(endpoint.received.length, 0);
  });

  it('shows the same real public key on every developer route, and the bot can set its own endpoint', async () => {
    const app = await createApp();
    const { token } = (
      await call<{ token: string }>(base, 'POST', `/applications/${app.id}/bot`, { auth: owner.token })
    ).body;
    const bot = `Bot ${token}`;
    const keys = await Promise.all(
      [
        call<SignedApplication>(base, 'GET', `/applications/${app.id}`, { auth: owner.token }),
        call<SignedApplication>(base, 'GET', '/applications/@me', { auth: bot }),
        call<SignedApplication>(base, 'GET', '/oauth2/applications/@me', { auth: bot }),
        call<SignedApplication[]>(base, 'GET', '/applications', { auth: owner.token }).then((listed) => ({
          body: listed.body.find((each) => each.id === app.id),
        })),
      ].map(async (answer) => (await answer).body?.verify_key),
    );
    assert.deepEqual(keys, [app.verify_key, app.verify_key, app.verify_key, app.verify_key]);
    const endpointOf = await interactionEndpointOf(server.node, app.id);
    assert.equal(endpointOf.verifyKey, app.verify_key);

    const patched = await call<SignedApplication>(base, 'PATCH', '/applications/@me', {
      auth: bot,
      body: { interactions_endpoint_url: endpoint.url },
    });
    assert.equal(patched.status, 200);
    assert.equal(endpoint.received[0]?.verified, true);
  });

  it('never shows the private key in an API answer', async () => {
    const app = await createApp();
    const raw = await fetch(`${base}/applications/${app.id}`, { headers: { authorization: owner.token } });
    const text = await raw.text();
    assert.doesNotMatch(text, /PRIVATE KEY|signing_key/);
    const { signingKeyPem } = await interactionEndpointOf(server.node, app.id);
    assert.match(signingKeyPem, /BEGIN PRIVATE KEY/);
  });

  describe('delivery (postSignedInteraction, as the interactions route uses it)', () => {
    it('posts a body the bot verifies with verifyKey and gives back its answer', async () => {
      const app = await createApp();
      assert.equal((await setUrl(app.id, endpoint.url)).status, 200);
      endpoint.received.length = 0;
      const target = await interactionEndpointOf(server.node, app.id);
      assert.equal(target.url, endpoint.url);
      const body = JSON.stringify({ type: 2, id: '42', application_id: app.id, data: { name: 'ünïcode' } });
      const answer = await postSignedInteraction(target.url, target.signingKeyPem, body, 3_000, LOOPBACK);
      assert.equal(answer.status, 200);
      assert.deepEqual(JSON.parse(answer.bodyText), { type: 4, data: { content: 'ok' } });
      const [delivered] = endpoint.received;
      assert.equal(delivered?.body, body);
      assert.equal(delivered.verified, true);
      const { 'x-signature-ed25519': signature, 'x-signature-timestamp': timestamp } = delivered.headers;
      assert.equal(await verifyKey(body, String(signature), String(timestamp), app.verify_key), true);
    });

    it('fails with a typed error when the endpoint does not answer in time', async () => {
      const app = await createApp();
      const { signingKeyPem } = await interactionEndpointOf(server.node, app.id);
      endpoint.mode = 'silent';
      await assert.rejects(
        postSignedInteraction(endpoint.url, signingKeyPem, '{"type":2}', 50, LOOPBACK),
        (error: unknown) => error instanceof InteractionDeliveryError && error.reason === 'timeout',
      );
      assert.equal(endpoint.received.length, 1);
    });

    it('refuses a loopback endpoint without the option, before connecting', async () => {
      const app = await createApp();
      const { signingKeyPem } = await interactionEndpointOf(server.node, app.id);
      const byName = endpoint.url.replace('127.0.0.1', 'localhost');
      for (const url of [endpoint.url, byName]) {
        await assert.rejects(
          postSignedInteraction(url, signingKeyPem, '{"type":2}'),
          (error: unknown) => error instanceof InteractionDeliveryError && error.reason === 'refused_url',
          url,
        );
      }
      assert.equal(endpoint.received.length, 0);
    });
  });
});

describe('HTTP interactions on a node without CHORUS_OUTBOUND_ALLOW_PRIVATE', () => {
  let server: TestServer;
  let endpoint: InteractionsEndpoint;

  before(async () => {
    server = await startTestServer();
    endpoint = await startInteractionsEndpoint();
  });
  after(async () => {
    await endpoint.close();
    await server.stop();
  });

  it('refuses a loopback endpoint URL and posts nothing to it', async () => {
    const owner = await registerUser(server.api, 'guarded');
    const app = await call<SignedApplication>(server.api, 'POST', '/applications', {
      auth: owner.token,
      body: { name: 'loopback bot' },
    });
    endpoint.publicKey = app.body.verify_key;
    const answer = await call(server.api, 'PATCH', `/applications/${app.body.id}`, {
      auth: owner.token,
      body: { interactions_endpoint_url: endpoint.url },
    });
    assert.equal(answer.status, 400);
    assert.deepEqual(fieldCodes(answer.body, 'interactions_endpoint_url'), [
      'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
    ]);
    assert.equal(endpoint.received.length, 0);
  });
});
