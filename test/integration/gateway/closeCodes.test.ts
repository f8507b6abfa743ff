import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { GatewayClient } from '../../support/GatewayClient.js';
import { registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';

describe('gateway close codes', () => {
  let server: TestServer;
  let alice: TestUser;

  before(async () => {
    server = await startTestServer();
    alice = await registerUser(server.api, 'alice');
  });
  after(async () => {
    await server.stop();
  });

  const identifyBody = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
    token: alice.token,
    properties: { os: 'linux', browser: 'test', device: 'test' },
    ...extra,
  });

  /** Connects, runs `act`, and returns the close code the server chose. */
  async function closeCodeAfter(act: (client: GatewayClient) => void | Promise<void>, query?: string): Promise<number> {
    const client = await GatewayClient.connect(server.gatewayUrl, query === undefined ? {} : { query });
    await act(client);
    return (await client.closed).code;
  }

  it('closes 4001 for an unknown opcode', async () => {
    assert.equal(
      await closeCodeAfter((c) => {
        c.send(99, {});
      }),
      4001,
    );
  });

  it('closes 4001 for a server-only opcode sent by the client', async () => {
    assert.equal(
      await closeCodeAfter((c) => {
        c.send(11, null);
      }),
      4001,
    );
  });

  it('closes 4002 for a payload that is not JSON', async () => {
    assert.equal(
      await closeCodeAfter((c) => {
        c.sendRaw('{"op": 1, d: nope');
      }),
      4002,
    );
  });

  it('closes 4002 for a payload over 4096 bytes', async () => {
    const big = JSON.stringify({ op: 1, d: null, pad: 'x'.repeat(4100) });
    assert.equal(
      await closeCodeAfter((c) => {
        c.sendRaw(big);
      }),
      4002,
    );
  });

  it('closes 4002 for an Identify that fails IdentifySchema', async () => {
    assert.equal(
      await closeCodeAfter((c) => {
        c.send(2, { token: alice.token });
      }),
      4002,
    );
  });

  it('closes 4003 for a payload other than heartbeat, identify or resume before Identify', async () => {
    assert.equal(
      await closeCodeAfter((c) => {
        c.send(3, { status: 'online', since: null, activities: [], afk: false });
      }),
      4003,
    );
  });

  it('closes 4004 for an invalid token', async () => {
    assert.equal(
      await closeCodeAfter((c) => {
        c.send(2, identifyBody({ token: 'MTIz.bm90.YXRva2Vu' }));
      }),
      4004,
    );
  });

  it('closes 4004 for an empty token', async () => {
    assert.equal(
      await closeCodeAfter((c) => {
        c.send(2, identifyBody({ token: '' }));
      }),
      4004,
    );
  });

  it('closes 4005 for a second Identify', async () => {
    const code = await closeCodeAfter(async (c) => {
      await c.identify(alice.token);
      c.send(2, identifyBody());
    });
    assert.equal(code, 4005);
  });

  it('closes 4008 after more than 120 payloads in a minute', async () => {
    const code = await closeCodeAfter((c) => {
      for (let i = 0; i < 121; i += 1) c.send(1, null);
    });
    assert.equal(code, 4008);
  });

  it('closes 4010 for a shard id outside [0, count)', async () => {
    assert.equal(
      await closeCodeAfter((c) => {
        c.send(2, identifyBody({ shard: [2, 2] }));
      }),
      4010,
    );
    assert.equal(
      await closeCodeAfter((c) => {
        c.send(2, identifyBody({ shard: [-1, 2] }));
      }),
      4010,
    );
    assert.equal(
      await closeCodeAfter((c) => {
        c.send(2, identifyBody({ shard: [0, 0] }));
      }),
      4010,
    );
  });

  it('closes 4012 for an unsupported API version', async () => {
    assert.equal(await closeCodeAfter(() => undefined, 'v=5&encoding=json'), 4012);
  });

  it('closes 4002 for an encoding other than json and etf', async () => {
    assert.equal(await closeCodeAfter(() => undefined, 'v=10&encoding=xml'), 4002);
  });

  it('closes 4013 for intents with unknown bits', async () => {
    assert.equal(
      await closeCodeAfter((c) => {
        c.send(2, identifyBody({ intents: 2 ** 30 }));
      }),
      4013,
    );
    assert.equal(
      await closeCodeAfter((c) => {
        c.send(2, identifyBody({ intents: -1 }));
      }),
      4013,
    );
  });

  it('accepts a bot-style Identify whose presence lacks user-client activity fields', async () => {
    const client = await GatewayClient.connect(server.gatewayUrl);
    const presence = { status: 'idle', since: null, afk: false, activities: [{ name: 'tests', type: 0 }] };
    const ready = await client.identify(alice.token, { intents: 513, presence, compress: false, large_threshold: 50 });
    assert.equal((ready['sessions'] as { status: string }[])[0]?.status, 'idle');
    await client.close();
  });
});
