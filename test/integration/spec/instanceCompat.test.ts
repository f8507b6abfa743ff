import assert from 'node:assert/strict';
import {
  api,
  connect,
  createGuild,
  errorFields,
  fails,
  guildWithMember,
  raw,
  registerUser,
  startHarness,
  type GuildHarness,
  type TestGuild,
  type TestUser,
} from './specKit.js';

describe('instance routes of the spec', function () {
  this.timeout(30_000);
  let h: GuildHarness;
  let target: TestGuild;
  let user: TestUser;

  before(async () => {
    h = await startHarness();
    ({ target, user } = await guildWithMember(h));
  });

  after(async () => {
    await h.stop();
  });

  describe('public routes', () => {
    it('answers the update check without a token', async () => {
      const update = await api<{ name: string; pub_date: string; url: null }>(h.api, 'GET', '/updates');
      assert.equal(typeof update.name, 'string');
      assert.ok(!Number.isNaN(Date.parse(update.pub_date)));
      assert.equal(update.url, null);
    });

    it('accepts telemetry on /track and /science with 204', async () => {
      for (const path of ['/track', '/science']) {
        const response = await raw(h.api, 'POST', path, { body: { events: [{ type: 'x' }] } });
        assert.equal(response.status, 204, path);
      }
    });

    it('serves the instance policy, its limits and its domains', async () => {
      const policy = await api<{ instanceName: string }>(h.api, 'GET', '/policies/instance');
      assert.equal(policy.instanceName, 'Chorus');
      const limits = await api<{ guild: { maxRoles: number }; message: { maxCharacters: number } }>(
        h.api,
        'GET',
        '/policies/instance/limits',
      );
      assert.equal(limits.guild.maxRoles, 250);
      assert.equal(limits.message.maxCharacters, 2000);
      const domains = await api<{ apiEndpoint: string; gateway: string; cdn: string; defaultApiVersion: string }>(
        h.api,
        'GET',
        '/policies/instance/domains/',
      );
      assert.equal(domains.apiEndpoint, `${h.node.url}/api`);
      assert.equal(domains.gateway, h.gatewayUrl);
      assert.equal(domains.cdn, h.node.url);
    });

    it('serves the scheduled-maintenance document clients poll', async () => {
      const doc = await api<{ scheduled_maintenances: unknown[] }>(
        h.api,
        'GET',
        '/scheduled-maintenances/upcoming.json',
      );
      assert.deepEqual(doc.scheduled_maintenances, []);
    });

    it('answers /experiments without a token, with a fingerprint only for anonymous callers', async () => {
      const anonymous = await api<{ fingerprint?: string; assignments: unknown[] }>(
        h.api,
        'GET',
        '/experiments?with_guild_experiments=true',
      );
      assert.deepEqual(anonymous.assignments, []);
      assert.equal(typeof anonymous.fingerprint, 'string');
      const signedIn = await api<{ fingerprint?: string }>(h.api, 'GET', '/experiments', { token: user.token });
      assert.equal(signedIn.fingerprint, undefined);
      const apex = await api<{ assignments: unknown[] }>(h.api, 'GET', '/apex/experiments?surface=2');
      assert.deepEqual(apex.assignments, []);
    });
  });

  describe('signed-in listings', () => {
    const listings: [string, unknown][] = [
      ['/voice/regions', [{ id: 'local', name: 'Local', optimal: true, deprecated: false, custom: false }]],
      ['/teams', []],
      ['/stage-instances', []],
      ['/sticker-packs', { sticker_packs: [] }],
      ['/outbound-promotions', []],
      ['/oauth2/tokens', []],
      ['/store/published-listings/skus/1/subscription-plans', []],
      ['/store/published-listings/applications/1/subscription-plans', []],
    ];

    it('refuses every listing without a token (401)', async () => {
      for (const [path] of listings) await fails(h.api, 'GET', path, undefined, 401, 0);
      await fails(h.api, 'GET', '/policies/stats', undefined, 401, 0);
      await fails(
        h.api,
        'GET',
        '/scheduled-maintenances/upcoming_json/scheduled-maintenances/upcoming.json',
        undefined,
        401,
        0,
      );
    });

    it('answers each listing with its empty shape', async () => {
      for (const [path, expected] of listings) {
        assert.deepEqual(await api(h.api, 'GET', path, { token: user.token }), expected, path);
      }
      const maintenance = await api<{ scheduled_maintenances: unknown[] }>(
        h.api,
        'GET',
        '/scheduled-maintenances/upcoming_json/scheduled-maintenances/upcoming.json',
        { token: user.token },
      );
      assert.deepEqual(maintenance.scheduled_maintenances, []);
    });

    it('counts the instance (embedded mode counts in SQLite; exact counts: test/integration/cliRecords.test.ts)', async () => {
      const stats = await api<{ counts: Record<string, unknown> }>(h.api, 'GET', '/policies/stats', {
        token: user.token,
      });
      assert.deepEqual(Object.keys(stats.counts).sort(), ['guild', 'members', 'message', 'user']);
      for (const count of Object.values(stats.counts)) assert.ok(Number.isInteger(count), `${String(count)} counted`);
      assert.ok(Number(stats.counts.user) >= 1, 'the caller is a user');
    });

    it('answers unknown SKUs and store listings with Discord codes, and 50035 for a malformed id', async () => {
      await fails(h.api, 'GET', '/store/published-listings/skus/521842865731534868', user, 404, 10_027);
      await fails(h.api, 'GET', '/store/published-listings/applications/521842865731534868', user, 404, 10_028);
      const error = await fails(h.api, 'GET', '/store/published-listings/skus/not-a-sku', user, 400, 50_035);
      assert.deepEqual(errorFields(error), ['sku_id']);
    });

    it('shows partner requirements to members only', async () => {
      const requirements = await api<{ guild_id: string; sufficient: boolean }>(
        h.api,
        'GET',
        `/partners/${target.guild.id}/requirements`,
        { token: user.token },
      );
      assert.equal(requirements.guild_id, target.guild.id);
      assert.equal(requirements.sufficient, true);
      const outsider = await registerUser(h.api, 'outsider');
      await fails(h.api, 'GET', `/partners/${target.guild.id}/requirements`, outsider, 404, 10_004);
    });
  });

  describe('POST /read-states/ack-bulk', () => {
    it('acknowledges the one read state and tells the user’s sessions MESSAGE_ACK', async () => {
      const message = await api<{ id: string }>(h.api, 'POST', `/channels/${target.textChannelId}/messages`, {
        token: target.owner.token,
        body: { content: 'read me' },
      });
      const client = await connect(h.gatewayUrl, user);
      try {
        const response = await raw(h.api, 'POST', '/read-states/ack-bulk', {
          token: user.token,
          body: { read_states: [{ channel_id: target.textChannelId, message_id: message.id, read_state_type: 0 }] },
        });
        assert.equal(response.status, 204);
        const ack = await client.waitForDispatch<{ channel_id: string; message_id: string }>('MESSAGE_ACK');
        assert.equal(ack.d.channel_id, target.textChannelId);
        assert.equal(ack.d.message_id, message.id);
      } finally {
        await client.close();
      }
    });

    it('refuses an anonymous caller (401)', async () => {
      await fails(h.api, 'POST', '/read-states/ack-bulk', undefined, 401, 0, { read_states: [] });
    });

    it('refuses anything but exactly one read state (50035 naming read_states)', async () => {
      const item = { channel_id: target.textChannelId, message_id: target.textChannelId, read_state_type: 0 };
      for (const body of [{}, { read_states: [] }, { read_states: [item, item] }]) {
        const error = await fails(h.api, 'POST', '/read-states/ack-bulk', user, 400, 50_035, body);
        assert.deepEqual(errorFields(error), ['read_states'], JSON.stringify(body));
      }
    });

    it('answers 404 10003 for a channel of a guild the caller is not in', async () => {
      const other = await createGuild(h.api, await registerUser(h.api, 'elsewhere'), 'Elsewhere');
      await fails(h.api, 'POST', '/read-states/ack-bulk', user, 404, 10_003, {
        read_states: [{ channel_id: other.textChannelId, message_id: other.textChannelId, read_state_type: 0 }],
      });
    });
  });
});
