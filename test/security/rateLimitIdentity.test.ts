import assert from 'node:assert/strict';
import { guildWorld, textChannel, type GuildWorld } from '../integration/messages/messageFixtures.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { send } from './securityKit.js';

/** A token that names `userId` in its first part but carries no valid signature. */
const forgedFor = (userId: string): string => `${Buffer.from(userId).toString('base64url')}.AAAA.AAAA`;
const madeUpId = (n: number): string => String(100_000_000_000_000_000n + BigInt(n));

describe('security: rate limits count verified identities and real addresses', () => {
  describe('without trusted proxies (the default)', () => {
    let server: TestServer;
    let world: GuildWorld;
    let channelId: string;

    before(async () => {
      server = await startTestServer({ CHORUS_GLOBAL_RATE_LIMIT: '10', CHORUS_MESSAGE_RATE_LIMIT: '5' });
      // Set up before any test spends this address's budget.
      world = await guildWorld(server.api);
      channelId = await textChannel(server.api, world, 'limits');
    });
    after(async () => server.stop());

    it('counts forged tokens naming a victim against the sender, not the victim', async () => {
      const { owner } = world;
      const forged = await Promise.all(
        Array.from({ length: 60 }, () => send(server.api, 'GET', '/users/@me', { auth: forgedFor(owner.id) })),
      );
      assert.ok(forged.every((answer) => answer.status === 401 || answer.status === 429));
      assert.ok(
        forged.some((answer) => answer.status === 429),
        'the forger reaches its own address limit',
      );
      const victim = await send(server.api, 'GET', '/users/@me', { auth: owner.token });
      assert.equal(victim.status, 200);
    });

    it('does not spend a victim’s message bucket with forged message posts', async () => {
      const { owner } = world;
      for (let post = 0; post < 6; post += 1) {
        await send(server.api, 'POST', `/channels/${channelId}/messages`, {
          auth: forgedFor(owner.id),
          body: { content: 'forged' },
        });
      }
      const real = await send(server.api, 'POST', `/channels/${channelId}/messages`, {
        auth: owner.token,
        body: { content: 'mine' },
      });
      assert.equal(real.status, 200);
    });

    it('limits made-up user ids by the sender’s address', async () => {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, n) => send(server.api, 'GET', '/users/@me', { auth: forgedFor(madeUpId(n)) })),
      );
      assert.ok(answers.some((answer) => answer.status === 429));
      const limited = answers.find((answer) => answer.status === 429);
      assert.equal(limited?.json['global'], true);
      assert.ok(Number(limited?.json['retry_after']) > 0);
    });

    it('ignores X-Forwarded-For from a client that is not a trusted proxy', async () => {
      const answers = await Promise.all(
        Array.from({ length: 40 }, (_, n) =>
          send(server.api, 'POST', '/auth/login', {
            body: { login: 'nobody@example.test', password: 'x' },
            headers: { 'x-forwarded-for': `198.51.100.${n}` },
          }),
        ),
      );
      assert.ok(answers.some((answer) => answer.status === 429));
    });
  });

  describe('behind a trusted proxy', () => {
    let server: TestServer;

    before(async () => {
      server = await startTestServer({ CHORUS_GLOBAL_RATE_LIMIT: '10', CHORUS_TRUSTED_PROXIES: 'loopback' });
    });
    after(async () => server.stop());

    const burst = (forwardedFor: (n: number) => string) =>
      Promise.all(
        Array.from({ length: 30 }, (_, n) =>
          send(server.api, 'GET', '/gateway', { headers: { 'x-forwarded-for': forwardedFor(n) } }),
        ),
      );

    it('counts each forwarded client separately', async () => {
      const answers = await burst((n) => `203.0.113.${n}`);
      assert.ok(answers.every((answer) => answer.status === 200));
    });

    it('takes the client the proxy saw, not an address the client prepended', async () => {
      const answers = await burst((n) => `192.0.2.${n}, 203.0.113.250`);
      assert.ok(answers.some((answer) => answer.status === 429));
    });
  });
});
