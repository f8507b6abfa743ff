import assert from 'node:assert/strict';
import { loadConfig } from '../../src/config/loadConfig.js';
import { GatewayClient } from '../support/GatewayClient.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../support/testServer.js';

const IDENTIFY_TIMEOUT_MS = 300;
const NOT_AUTHENTICATED = 4003;

/** Heartbeats every 50 ms (far more often than Hello asks) until the socket closes. */
function heartbeatEagerly(client: GatewayClient): void {
  const timer = setInterval(() => {
    if (client.ws.readyState === client.ws.OPEN) client.send(1, null);
  }, 50);
  void client.closed.then(() => {
    clearInterval(timer);
  });
}

describe('security: the gateway closes sockets that never identify', () => {
  let server: TestServer;
  let user: TestUser;

  before(async () => {
    // A long heartbeat interval: only the Identify deadline can close these sockets.
    server = await startTestServer({
      CHORUS_IDENTIFY_TIMEOUT_MS: String(IDENTIFY_TIMEOUT_MS),
      CHORUS_HEARTBEAT_INTERVAL_MS: '10000',
    });
    user = await registerUser(server.api, 'identifier');
  });

  after(async () => {
    await server.stop();
  });

  it('reads CHORUS_IDENTIFY_TIMEOUT_MS, 20 s by default', () => {
    assert.equal(loadConfig({}).gateway.identifyTimeoutMs, 20_000);
    assert.equal(loadConfig({}, { CHORUS_IDENTIFY_TIMEOUT_MS: '1500' }).gateway.identifyTimeoutMs, 1_500);
    assert.throws(() => loadConfig({}, { CHORUS_IDENTIFY_TIMEOUT_MS: '0' }), /identifyTimeoutMs/);
  });

  it('closes a socket that heartbeats but never identifies with 4003', async () => {
    const client = await GatewayClient.connect(server.gatewayUrl);
    await client.waitFor('op 10 Hello', (frame) => frame.op === 10);
    heartbeatEagerly(client);
    const closed = await client.closed;
    assert.equal(closed.code, NOT_AUTHENTICATED, JSON.stringify(closed));
    const acks = client.frames.filter((frame) => frame.op === 11).length;
    assert.ok(acks >= 2, `heartbeats were acknowledged before the close (${acks})`);
  });

  it('keeps a socket that identified in time open past the deadline', async () => {
    const { client: identified } = await GatewayClient.identified(server.gatewayUrl, user.token);
    // Connected later, this one is closed at its deadline: by then the identified socket is past its own.
    const idle = await GatewayClient.connect(server.gatewayUrl);
    heartbeatEagerly(idle);
    assert.equal((await idle.closed).code, NOT_AUTHENTICATED);
    const from = identified.frames.length;
    identified.send(1, identified.lastSeq);
    await identified.waitFor('heartbeat ACK after the deadline', (frame) => frame.op === 11, { from });
    assert.equal(identified.ws.readyState, identified.ws.OPEN);
    await identified.close();
  });
});
