import assert from 'node:assert/strict';
import {
  api,
  errorFields,
  guildWithMember,
  startHarness,
  type ApiError,
  type GuildHarness,
  type TestGuild,
  type TestUser,
} from './specKit.js';

/** A reply: its status and its parsed JSON body (undefined when empty). */
interface Answer<T> {
  readonly status: number;
  readonly body: T;
}

/**
 * Sends `text` as the JSON body, byte for byte: the requests here carry JSON integers beyond 2^53 (as
 * discord.py sends ids), which JSON.stringify cannot write.
 */
async function sendJsonText<T = unknown>(
  base: string,
  method: string,
  path: string,
  token: string,
  text: string,
): Promise<Answer<T>> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: token, 'content-type': 'application/json' },
    body: text,
  });
  const reply = await response.text();
  return { status: response.status, body: (reply === '' ? undefined : JSON.parse(reply)) as T };
}

/** The same, for a body JSON.stringify can write. */
const send = <T = unknown>(base: string, method: string, path: string, token: string, body: unknown) =>
  sendJsonText<T>(base, method, path, token, JSON.stringify(body));

/** Asserts a 400 50035 whose errors tree names `path` (dotted), and returns the leaf's code. */
function refusedNaming(answer: Answer<unknown>, path: string): string {
  assert.equal(answer.status, 400, JSON.stringify(answer.body));
  const error = answer.body as ApiError;
  assert.equal(error.code, 50_035);
  let node: unknown = error.errors;
  for (const key of path.split('.')) node = (node as Record<string, unknown> | undefined)?.[key];
  const leaf = (node as { _errors?: { code: string }[] } | undefined)?._errors?.[0];
  assert.ok(leaf, `no error at ${path}: ${JSON.stringify(error.errors)}`);
  return leaf.code;
}

interface ApiMessage {
  id: string;
  nonce?: string | number | null;
  message_reference?: { message_id: string; channel_id?: string };
}
interface ApiRole {
  id: string;
  permissions: string;
}
interface ApiOverwrite {
  id: string;
  type: number;
  allow: string;
  deny: string;
}

describe('liberal bodies: what real clients send, as Discord takes it', function () {
  this.timeout(30_000);
  let h: GuildHarness;
  let target: TestGuild;
  let user: TestUser;
  let owner: string;

  before(async () => {
    h = await startHarness();
    ({ target, user } = await guildWithMember(h, 'Liberal Guild'));
    owner = target.owner.token;
  });

  after(async () => {
    await h.stop();
  });

  const messages = () => `/channels/${target.textChannelId}/messages`;
  const overwrite = (id: string) => `/channels/${target.textChannelId}/permissions/${id}`;
  const overwritesNow = async (): Promise<ApiOverwrite[]> =>
    (
      await api<{ permission_overwrites: ApiOverwrite[] }>(h.api, 'GET', `/channels/${target.textChannelId}`, {
        token: owner,
      })
    ).permission_overwrites;

  it('sends a message with "nonce": null, as Discord4J always does', async () => {
    const sent = await send<ApiMessage>(h.api, 'POST', messages(), owner, { content: 'from D4J', nonce: null });
    assert.equal(sent.status, 200, JSON.stringify(sent.body));
    assert.ok(sent.body.nonce === undefined || sent.body.nonce === null);
  });

  it('creates a role with "permissions": 8 (a number) and reads it back as "8"', async () => {
    const created = await send<ApiRole>(h.api, 'POST', `/guilds/${target.guild.id}/roles`, owner, {
      name: 'admins',
      permissions: 8,
    });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.equal(created.body.permissions, '8');
    const roles = await api<ApiRole[]>(h.api, 'GET', `/guilds/${target.guild.id}/roles`, { token: owner });
    assert.equal(roles.find((role) => role.id === created.body.id)?.permissions, '8');
  });

  it('puts an overwrite without id, allow and deny as numbers, taking the id from the path', async () => {
    const role = await api<ApiRole>(h.api, 'POST', `/guilds/${target.guild.id}/roles`, {
      token: owner,
      body: { name: 'muted' },
    });
    const put = await send(h.api, 'PUT', overwrite(role.id), owner, { type: 0, allow: 1024, deny: 2048 });
    assert.equal(put.status, 204, JSON.stringify(put.body));
    assert.deepEqual(
      (await overwritesNow()).find((entry) => entry.id === role.id),
      { id: role.id, type: 0, allow: '1024', deny: '2048' },
    );
  });

  it('puts an overwrite as discord.py set_permissions does: the id a JSON integer beyond 2^53', async () => {
    assert.ok(BigInt(user.id) > BigInt(Number.MAX_SAFE_INTEGER));
    const text = `{"id": ${user.id}, "allow": "1024", "deny": "0", "type": 1}`;
    const put = await sendJsonText(h.api, 'PUT', overwrite(user.id), owner, text);
    assert.equal(put.status, 204, JSON.stringify(put.body));
    assert.deepEqual(
      (await overwritesNow()).find((entry) => entry.id === user.id),
      { id: user.id, type: 1, allow: '1024', deny: '0' },
    );
  });

  it('replies with message_reference.message_id a JSON integer beyond 2^53 (discord.py reply())', async () => {
    const original = await api<ApiMessage>(h.api, 'POST', messages(), { token: owner, body: { content: 'first' } });
    const text = `{"content": "a reply", "message_reference": {"message_id": ${original.id}}}`;
    const reply = await sendJsonText<ApiMessage>(h.api, 'POST', messages(), owner, text);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    assert.equal(reply.body.message_reference?.message_id, original.id);
  });

  it("registers JDA's commands: contexts and integration_types as numeric strings", async () => {
    const app = await send<{ id: string }>(h.api, 'POST', '/applications', owner, { name: 'JDA bot' });
    assert.ok(app.status === 200 || app.status === 201, JSON.stringify(app.body));
    const token = await send<{ token: string }>(h.api, 'POST', `/applications/${app.body.id}/bot`, owner, {});
    assert.equal(token.status, 200, JSON.stringify(token.body));
    const command = {
      type: 1,
      name: 'ping',
      description: 'Replies with pong',
      options: [],
      name_localizations: {},
      description_localizations: {},
      default_member_permissions: null,
      nsfw: false,
      contexts: ['0', '1', '2'],
      integration_types: ['0'],
    };
    const registered = await send<{ name: string; contexts: number[]; integration_types: number[] }[]>(
      h.api,
      'PUT',
      `/applications/${app.body.id}/commands`,
      `Bot ${token.body.token}`,
      [command],
    );
    assert.equal(registered.status, 200, JSON.stringify(registered.body));
    assert.equal(registered.body.length, 1);
    assert.deepEqual(registered.body[0]?.contexts, [0, 1, 2]);
    assert.deepEqual(registered.body[0]?.integration_types, [0]);
  });

  describe('refuses what Discord refuses, with 400 50035 naming the field', () => {
    it('a 21-digit snowflake', async () => {
      const answer = await send(h.api, 'POST', messages(), owner, {
        content: 'x',
        message_reference: { message_id: '1'.repeat(21) },
      });
      assert.equal(refusedNaming(answer, 'message_reference.message_id'), 'NUMBER_TYPE_COERCE');
    });

    it('a permission bitfield with a bit beyond the known ones', async () => {
      const answer = await send(h.api, 'POST', `/guilds/${target.guild.id}/roles`, owner, {
        name: 'too much',
        permissions: String(1n << 53n),
      });
      assert.equal(refusedNaming(answer, 'permissions'), 'NUMBER_TYPE_MAX');
      const deny = await send(h.api, 'PUT', overwrite(user.id), owner, { type: 1, deny: String(1n << 60n) });
      assert.equal(refusedNaming(deny, 'deny'), 'NUMBER_TYPE_MAX');
    });

    it('a negative id', async () => {
      const answer = await sendJsonText(h.api, 'PUT', overwrite(user.id), owner, '{"id": -5, "type": 1}');
      assert.equal(refusedNaming(answer, 'id'), 'NUMBER_TYPE_COERCE');
    });

    it('a fractional id', async () => {
      const text = '{"content": "x", "message_reference": {"message_id": 12.5}}';
      const answer = await sendJsonText(h.api, 'POST', messages(), owner, text);
      assert.equal(refusedNaming(answer, 'message_reference.message_id'), 'NUMBER_TYPE_COERCE');
      assert.deepEqual(errorFields(answer.body as ApiError), ['message_reference']);
    });
  });
});
