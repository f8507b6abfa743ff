import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { addBot, createBot, createGuild, type TestBot, type TestGuild } from '../gateway/gatewayFixtures.js';
import type { ApiError } from './messageFixtures.js';

/** A message as these tests read it. */
interface ComponentMessage {
  id: string;
  content: string;
  components: { type: number; components: Record<string, unknown>[] }[];
}

const buttons = [
  { type: 2, style: 1, label: 'Yes', custom_id: 'vote:yes' },
  { type: 2, style: 5, label: 'Docs', url: 'https://example.com/docs' },
];
const select = {
  type: 3,
  custom_id: 'colour',
  placeholder: 'Pick one',
  options: [
    { label: 'Red', value: 'red' },
    { label: 'Blue', value: 'blue', default: true },
  ],
};

describe('message components over HTTP', () => {
  let server: TestServer;
  let owner: TestUser;
  let bot: TestBot;
  let guild: TestGuild;

  const post = (token: string, body: unknown, expect = 200) =>
    api<ComponentMessage>(server.api, 'POST', `/channels/${guild.channelId}/messages`, { token, body, expect });

  before(async () => {
    server = await startTestServer();
    owner = await registerUser(server.api, 'owner');
    bot = await createBot(server.api, owner.token, 'buttons');
    guild = await createGuild(server.api, owner.token, 'components');
    await addBot(server.api, owner.token, bot, guild.id, String((1n << 10n) | (1n << 11n)));
  });
  after(async () => {
    await server.stop();
  });

  it('stores and echoes a bot’s buttons and select menu, each with its own fields only', async () => {
    const rows = [
      { type: 1, components: buttons },
      { type: 1, components: [{ ...select, url: 'https://not.a.select' }] },
    ];
    const sent = await post(bot.token, { content: 'Vote', components: rows });
    const expected = [
      { type: 1, components: buttons },
      { type: 1, components: [select] },
    ];
    assert.deepEqual(sent.components, expected);
    const read = await api<ComponentMessage>(server.api, 'GET', `/channels/${guild.channelId}/messages/${sent.id}`, {
      token: owner.token,
    });
    assert.deepEqual(read.components, expected);
  });

  it('answers 400 50035 naming the component field a bot got wrong, and stores nothing', async () => {
    const before = await api<ComponentMessage[]>(server.api, 'GET', `/channels/${guild.channelId}/messages`, {
      token: owner.token,
    });
    const error = await api<ApiError>(server.api, 'POST', `/channels/${guild.channelId}/messages`, {
      token: bot.token,
      body: { content: 'bad', components: [{ type: 1, components: [buttons[0], { type: 2, style: 2, label: 'No' }] }] },
      expect: 400,
    });
    assert.equal(error.code, 50035);
    assert.deepEqual(error.errors, {
      components: {
        0: {
          components: {
            1: {
              custom_id: {
                _errors: [{ code: 'BUTTON_COMPONENT_CUSTOM_ID_REQUIRED', message: 'A custom id required' }],
              },
            },
          },
        },
      },
    });
    const after = await api<ComponentMessage[]>(server.api, 'GET', `/channels/${guild.channelId}/messages`, {
      token: owner.token,
    });
    assert.equal(after.length, before.length);
  });

  it('answers 400 50035 for a text input or an unknown component type in a message', async () => {
    const input = { type: 4, custom_id: 'name', style: 1, label: 'Name' };
    const text = await api<ApiError>(server.api, 'POST', `/channels/${guild.channelId}/messages`, {
      token: bot.token,
      body: { content: 'x', components: [{ type: 1, components: [input] }] },
      expect: 400,
    });
    assert.ok(JSON.stringify(text.errors).includes('COMPONENT_TYPE_INVALID'));
    const unknown = await api<ApiError>(server.api, 'POST', `/channels/${guild.channelId}/messages`, {
      token: bot.token,
      body: { content: 'x', components: [{ type: 1, components: [{ type: 99, custom_id: 'z' }] }] },
      expect: 400,
    });
    assert.equal(unknown.code, 50035);
    assert.ok(JSON.stringify(unknown.errors).includes('"type"'));
  });

  it('drops the components a user account sends, as Discord does, and keeps the rest of the message', async () => {
    const sent = await post(owner.token, { content: 'from a person', components: [{ type: 1, components: buttons }] });
    assert.equal(sent.content, 'from a person');
    assert.deepEqual(sent.components, []);
  });

  it('takes a bot message of components alone, and answers a user account’s 400 50006 (nothing left to show)', async () => {
    const sent = await post(bot.token, { components: [{ type: 1, components: [select] }] });
    assert.equal(sent.content, '');
    assert.deepEqual(sent.components, [{ type: 1, components: [select] }]);
    const empty = await api<ApiError>(server.api, 'POST', `/channels/${guild.channelId}/messages`, {
      token: owner.token,
      body: { components: [{ type: 1, components: buttons }] },
      expect: 400,
    });
    assert.equal(empty.code, 50006);
  });

  it('lets a bot replace its message’s components by an edit, checked by the same rules', async () => {
    const sent = await post(bot.token, { content: 'Edit me', components: [{ type: 1, components: buttons }] });
    const path = `/channels/${guild.channelId}/messages/${sent.id}`;
    const edited = await api<ComponentMessage>(server.api, 'PATCH', path, {
      token: bot.token,
      body: { components: [{ type: 1, components: [select] }] },
    });
    assert.deepEqual(edited.components, [{ type: 1, components: [select] }]);
    const refused = await api<ApiError>(server.api, 'PATCH', path, {
      token: bot.token,
      body: { components: [{ type: 1, components: [select, buttons[0]] }] },
      expect: 400,
    });
    assert.ok(JSON.stringify(refused.errors).includes('COMPONENT_LAYOUT_WIDTH_EXCEEDED'));
  });

  describe('from a channel webhook (owned by no application)', () => {
    let url: string;
    before(async () => {
      const hook = await api<{ id: string; token: string }>(
        server.api,
        'POST',
        `/channels/${guild.channelId}/webhooks`,
        { token: owner.token, body: { name: 'Hook' } },
      );
      url = `/webhooks/${hook.id}/${hook.token}`;
    });

    it('drops components unless with_components=true', async () => {
      const sent = await api<ComponentMessage>(server.api, 'POST', `${url}?wait=true`, {
        body: { content: 'hooked', components: [{ type: 1, components: [buttons[1]] }] },
      });
      assert.deepEqual(sent.components, []);
    });

    it('keeps link buttons with with_components=true and refuses interactive ones with 400 50035', async () => {
      const sent = await api<ComponentMessage>(server.api, 'POST', `${url}?wait=true&with_components=true`, {
        body: { content: 'link', components: [{ type: 1, components: [buttons[1]] }] },
      });
      assert.deepEqual(sent.components, [{ type: 1, components: [buttons[1]] }]);
      const refused = await api<ApiError>(server.api, 'POST', `${url}?wait=true&with_components=true`, {
        body: { content: 'click', components: [{ type: 1, components: [buttons[0]] }] },
        expect: 400,
      });
      assert.equal(refused.code, 50035);
      assert.ok(JSON.stringify(refused.errors).includes('COMPONENT_INTERACTIVE_NOT_ALLOWED'));
    });
  });
});
