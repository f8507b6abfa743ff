import assert from 'node:assert/strict';
import { performance } from 'node:perf_hooks';
import { guildWorld, textChannel, type GuildWorld } from '../integration/messages/messageFixtures.js';
import { startTestServer, type TestServer } from '../support/testServer.js';
import { send, type RawAnswer } from './securityKit.js';

/** `{"a":{"a":...1}}` nested `levels` deep, as text. */
const deepJson = (levels: number): string => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;

/** The dotted paths of the fields an errors tree names. */
function errorPaths(tree: unknown, prefix = ''): string[] {
  if (typeof tree !== 'object' || tree === null) return [];
  return Object.entries(tree).flatMap(([key, child]) =>
    key === '_errors' ? [prefix.slice(1)] : errorPaths(child, `${prefix}.${key}`),
  );
}

function assertFieldError(answer: RawAnswer, path: string): void {
  assert.equal(answer.status, 400, answer.text.slice(0, 300));
  assert.equal(answer.json['code'], 50_035);
  assert.deepEqual(errorPaths(answer.json['errors']), [path]);
}

describe('security: bodies are bounded by their schemas and cannot brick an account', () => {
  let server: TestServer;
  let world: GuildWorld;
  let channelId: string;

  before(async () => {
    server = await startTestServer();
    world = await guildWorld(server.api);
    channelId = await textChannel(server.api, world, 'bounded');
  });
  after(async () => server.stop());

  describe('user settings', () => {
    const patchSettings = (raw: string): Promise<RawAnswer> =>
      send(server.api, 'PATCH', '/users/@me/settings', { auth: world.member.token, raw });

    it('refuses a custom status nested 2,000 levels deep (400 50035, not 200), and the account still works', async () => {
      const answer = await patchSettings(`{"custom_status":{"text":"hi","a":${deepJson(2_000)}}}`);
      assert.equal(answer.status, 400, answer.text.slice(0, 300));
      assert.equal(answer.json['code'], 50_035);
      const later = await patchSettings('{"theme":"light"}');
      assert.equal(later.status, 200, later.text.slice(0, 300));
      assert.equal((await send(server.api, 'GET', '/users/@me', { auth: world.member.token })).status, 200);
    });

    it('stores a custom status with its known fields only, and later writes keep working', async () => {
      const raw = `{"custom_status":{"text":"away","emoji_name":null,"expires_at":null,"x":${deepJson(20)}}}`;
      const answer = await patchSettings(raw);
      assert.equal(answer.status, 200, answer.text.slice(0, 300));
      assert.deepEqual(answer.json['custom_status'], { text: 'away', emoji_name: null, expires_at: null });
      const stored = await send(server.api, 'GET', '/users/@me/settings', { auth: world.member.token });
      assert.deepEqual(stored.json['custom_status'], { text: 'away', emoji_name: null, expires_at: null });
      assert.equal((await patchSettings('{"custom_status":null}')).status, 200);
    });

    it("bounds the custom status to Discord's limits", async () => {
      assertFieldError(
        await patchSettings(JSON.stringify({ custom_status: { text: 'x'.repeat(129) } })),
        'custom_status.text',
      );
      assertFieldError(
        await patchSettings(JSON.stringify({ custom_status: { text: { a: { b: 'nested' } } } })),
        'custom_status.text',
      );
    });

    it('keeps channel overrides to their shape and at most 500 of them', async () => {
      const path = '/users/@me/guilds/@me/settings';
      const patch = (body: unknown) => send(server.api, 'PATCH', path, { auth: world.member.token, body });
      const kept = await patch({
        channel_overrides: { [channelId]: { muted: true, x: JSON.parse(deepJson(20)) as unknown } },
      });
      assert.equal(kept.status, 200, kept.text.slice(0, 300));
      const overrides = kept.json['channel_overrides'] as Record<string, unknown>[];
      assert.equal(overrides.length, 1);
      assert.equal('x' in (overrides[0] ?? {}), false);
      const many = Object.fromEntries(Array.from({ length: 501 }, (_, index) => [String(index + 1), { muted: true }]));
      assertFieldError(await patch({ channel_overrides: many }), 'channel_overrides');
      assert.equal((await patch({ muted: false })).status, 200);
    });
  });

  describe('huge arrays', () => {
    it('refuses 450,000 sticker_ids quickly with a small body', async () => {
      const raw = JSON.stringify({ content: 'x', sticker_ids: Array<number>(450_000).fill(1) });
      const started = performance.now();
      const answer = await send(server.api, 'POST', `/channels/${channelId}/messages`, {
        auth: world.owner.token,
        raw,
      });
      const ms = performance.now() - started;
      assert.equal(answer.status, 400, answer.text.slice(0, 300));
      assert.ok(answer.text.length < 4_096, `answer of ${answer.text.length} bytes`);
      assert.ok(ms < 1_000, `took ${ms.toFixed(0)} ms`);
    });

    it('names sticker_ids once when a list within the body caps is past its limit', async () => {
      const raw = JSON.stringify({ content: 'x', sticker_ids: Array<number>(40_000).fill(1) });
      const answer = await send(server.api, 'POST', `/channels/${channelId}/messages`, {
        auth: world.owner.token,
        raw,
      });
      assertFieldError(answer, 'sticker_ids');
      assert.ok(answer.text.length < 4_096, `answer of ${answer.text.length} bytes`);
    });
  });

  describe('unknown fields', () => {
    it('are not stored with a message: it reads back without them', async () => {
      const body = {
        content: 'plain',
        smuggled: { deep: JSON.parse(deepJson(20)) as unknown },
        embeds: [{ title: 'kept', evil: 'x'.repeat(10_000), footer: { text: 'f', extra: [1, 2, 3] } }],
      };
      const created = await send(server.api, 'POST', `/channels/${channelId}/messages`, {
        auth: world.owner.token,
        body,
      });
      assert.equal(created.status, 200, created.text.slice(0, 300));
      const id = String(created.json['id']);
      const read = await send(server.api, 'GET', `/channels/${channelId}/messages/${id}`, { auth: world.owner.token });
      assert.equal(read.status, 200);
      assert.equal('smuggled' in read.json, false);
      const [embed] = read.json['embeds'] as Record<string, unknown>[];
      assert.equal(embed?.['title'], 'kept');
      assert.equal(embed !== undefined && 'evil' in embed, false);
      assert.deepEqual(embed?.['footer'], { text: 'f' });
    });

    it('are dropped from webhook bodies, while execute keeps its own username field', async () => {
      const hook = await send(server.api, 'POST', `/channels/${channelId}/webhooks`, {
        auth: world.owner.token,
        body: { name: 'hook', smuggled: 'x' },
      });
      assert.equal(hook.status, 200, hook.text.slice(0, 300));
      const path = `/webhooks/${String(hook.json['id'])}/${String(hook.json['token'])}`;
      const renamed = await send(server.api, 'PATCH', path, { body: { name: 'renamed', smuggled: 'x' } });
      assert.equal(renamed.status, 200, renamed.text.slice(0, 300));
      assert.equal(renamed.json['name'], 'renamed');
      assert.equal('smuggled' in renamed.json, false);
      const sent = await send(server.api, 'POST', `${path}?wait=true`, {
        body: { content: 'hi', username: 'Relay', smuggled: 'x' },
      });
      assert.equal(sent.status, 200, sent.text.slice(0, 300));
      assert.equal((sent.json['author'] as { username?: string }).username, 'Relay');
      assert.equal('smuggled' in sent.json, false);
    });
  });
});
