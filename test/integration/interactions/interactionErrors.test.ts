import assert from 'node:assert/strict';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  type ChatInputCommandInteraction,
  type TextChannel,
} from 'discord.js';
import { api } from '../../support/testServer.js';
import { Bits, memberOverwrite, send, textChannel, type ApiError } from '../messages/messageFixtures.js';
import {
  guildCommand,
  interactionWorld,
  invoke,
  nextInteraction,
  type ApiCommand,
  type InteractionWorld,
} from './interactionFixtures.js';

const USE_APPLICATION_COMMANDS = 1n << 31n;

/** Reads an error response, asserting its status. */
async function errorOf(response: Response, status: number): Promise<ApiError> {
  const text = await response.text();
  assert.equal(response.status, status, text);
  return JSON.parse(text) as ApiError;
}

describe('interactions refused', function () {
  this.timeout(30_000);
  let w: InteractionWorld;
  let count: ApiCommand;

  /** POST /interactions/{id}/{token}/callback without credentials, as discord.js sends it. */
  const callback = (id: string, token: string, body: unknown) =>
    fetch(`${w.server.api}/interactions/${id}/${token}/callback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  /** Invokes /count with a valid option and resolves with what the bot receives. */
  async function counted(): Promise<ChatInputCommandInteraction> {
    const received = nextInteraction<ChatInputCommandInteraction>(w.bot, (i) => i.isChatInputCommand());
    const response = await invoke(w, {
      type: 2,
      data: { id: count.id, type: 1, options: [{ type: 4, name: 'n', value: 3 }] },
    });
    assert.equal(response.status, 204, await response.text());
    return received;
  }

  before(async () => {
    w = await interactionWorld();
    count = await guildCommand(w, {
      name: 'count',
      description: 'Counts',
      options: [{ type: 4, name: 'n', description: 'How many', required: true, min_value: 1, max_value: 10 }],
    });
  });

  after(async () => {
    await w?.stop();
  });

  it('answers an unknown command id with 404 10063', async () => {
    const error = await errorOf(await invoke(w, { type: 2, data: { id: '123456789012345678', type: 1 } }), 404);
    assert.equal(error.code, 10_063);
  });

  it('answers an option of the wrong type, out of range or missing with 400 50035 naming it', async () => {
    const wrongType = await errorOf(
      await invoke(w, { type: 2, data: { id: count.id, type: 1, options: [{ type: 4, name: 'n', value: 'three' }] } }),
      400,
    );
    assert.equal(wrongType.code, 50_035);
    assert.ok(JSON.stringify(wrongType.errors).includes('"value"'), JSON.stringify(wrongType.errors));
    const declaredWrong = await errorOf(
      await invoke(w, { type: 2, data: { id: count.id, type: 1, options: [{ type: 3, name: 'n', value: '3' }] } }),
      400,
    );
    assert.ok(JSON.stringify(declaredWrong.errors).includes('"type"'), JSON.stringify(declaredWrong.errors));
    const tooMany = await errorOf(
      await invoke(w, { type: 2, data: { id: count.id, type: 1, options: [{ type: 4, name: 'n', value: 11 }] } }),
      400,
    );
    assert.equal(tooMany.code, 50_035);
    const missing = await errorOf(await invoke(w, { type: 2, data: { id: count.id, type: 1 } }), 400);
    assert.equal(missing.code, 50_035);
  });

  it('refuses a member without USE_APPLICATION_COMMANDS with 403 50013, before reading the body', async () => {
    const channelId = await textChannel(w.server.api, w.world, 'no-commands');
    await memberOverwrite(w.server.api, w.world, channelId, w.world.member.id, 0n, USE_APPLICATION_COMMANDS);
    const denied = await errorOf(
      await invoke(w, { type: 2, channel_id: channelId, data: { id: count.id, type: 1 } }),
      403,
    );
    assert.equal(denied.code, 50_013);
    const hidden = await textChannel(w.server.api, w.world, 'hidden-commands');
    await memberOverwrite(w.server.api, w.world, hidden, w.world.member.id, 0n, Bits.VIEW_CHANNEL);
    const badBodyHidden = await errorOf(await invoke(w, { type: 9, channel_id: hidden, data: {} }), 403);
    assert.equal(badBodyHidden.code, 50_001);
  });

  it('refuses a command whose default_member_permissions the member lacks with 403 50013', async () => {
    const admin = await guildCommand(w, {
      name: 'admin',
      description: 'Admins only',
      default_member_permissions: '32',
    });
    const error = await errorOf(await invoke(w, { type: 2, data: { id: admin.id, type: 1 } }), 403);
    assert.equal(error.code, 50_013);
  });

  it('refuses a member whom the guild command permissions deny with 403 50013', async () => {
    const guarded = await guildCommand(w, { name: 'guarded', description: 'Not for the member' });
    await api(
      w.server.api,
      'PUT',
      `/applications/${w.applicationId}/guilds/${w.world.guildId}/commands/${guarded.id}/permissions`,
      {
        token: w.world.owner.token,
        body: { permissions: [{ id: w.world.member.id, type: 2, permission: false }] },
      },
    );
    const error = await errorOf(await invoke(w, { type: 2, data: { id: guarded.id, type: 1 } }), 403);
    assert.equal(error.code, 50_013);
    const owner = await invoke(w, { type: 2, data: { id: guarded.id, type: 1 } }, w.world.owner.token);
    assert.equal(owner.status, 204, await owner.text());
  });

  it('answers an anonymous invocation with 401', async () => {
    const response = await fetch(`${w.server.api}/interactions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 2,
        application_id: w.applicationId,
        channel_id: w.channelId,
        data: { id: count.id },
      }),
    });
    assert.equal(response.status, 401);
  });

  it('answers a second callback with 400 40060', async () => {
    const interaction = await counted();
    await interaction.reply('three');
    const error = await errorOf(
      await callback(interaction.id, interaction.token, { type: 4, data: { content: 'again' } }),
      400,
    );
    assert.equal(error.code, 40_060);
    assert.equal(error.message, 'Interaction has already been acknowledged.');
  });

  it('refuses a modal holding a button with 400 50035, leaving the interaction unanswered', async () => {
    const interaction = await counted();
    const button = { type: 2, custom_id: 'no', label: 'No', style: 1 };
    const modal = {
      type: 9,
      data: { custom_id: 'm', title: 'Modal', components: [{ type: 1, components: [button] }] },
    };
    const error = await errorOf(await callback(interaction.id, interaction.token, modal), 400);
    assert.equal(error.code, 50_035);
    await interaction.reply('answered after the refusal');
  });

  it('answers a forged or foreign token with 404 10062', async () => {
    const interaction = await counted();
    const [head = '', signature = ''] = interaction.token.split('.');
    const forged = `${head}.${signature.startsWith('A') ? 'B' : 'A'}${signature.slice(1)}`;
    const body = { type: 4, data: { content: 'forged' } };
    assert.equal((await errorOf(await callback(interaction.id, forged, body), 404)).code, 10_062);
    assert.equal((await errorOf(await callback('123456789012345678', interaction.token, body), 404)).code, 10_062);
    const followup = await fetch(`${w.server.api}/webhooks/${w.applicationId}/${forged}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'forged' }),
    });
    assert.equal((await errorOf(followup, 404)).code, 10_062);
    await interaction.reply('still answerable with the real token');
  });

  it('tells the invoker the interaction failed after 3 s unanswered, and then answers callbacks with 404 10062', async () => {
    const from = w.user.frames.length;
    const interaction = await counted();
    await w.user.waitForDispatch('INTERACTION_FAILURE', (d: { id?: string }) => d.id === interaction.id, {
      from,
      timeoutMs: 10_000,
    });
    const error = await errorOf(
      await callback(interaction.id, interaction.token, { type: 4, data: { content: 'late' } }),
      404,
    );
    assert.equal(error.code, 10_062);
  });

  it('refuses clicks on a hidden, foreign or disabled component', async () => {
    const hidden = await textChannel(w.server.api, w.world, 'hidden-panel');
    const channel = (await w.bot.channels.fetch(hidden)) as TextChannel;
    const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder().setCustomId('go').setLabel('Go').setStyle(ButtonStyle.Primary),
      new ButtonBuilder().setCustomId('stop').setLabel('Stop').setStyle(ButtonStyle.Danger).setDisabled(true),
    );
    const panel = await channel.send({ content: 'panel', components: [row] });
    const click = (customId: string, messageId = panel.id, channelId = hidden) =>
      invoke(w, {
        type: 3,
        channel_id: channelId,
        message_id: messageId,
        data: { component_type: 2, custom_id: customId },
      });
    const disabled = await errorOf(await click('stop'), 400);
    assert.equal(disabled.code, 50_035);
    const unknown = await errorOf(await click('nothing'), 400);
    assert.equal(unknown.code, 50_035);
    const byUser = await send(w.server.api, w.world.owner, hidden, { content: 'not the bot' });
    assert.equal((await errorOf(await click('go', byUser.id), 404)).code, 10_008);
    await memberOverwrite(w.server.api, w.world, hidden, w.world.member.id, 0n, Bits.VIEW_CHANNEL);
    assert.equal((await errorOf(await click('go'), 403)).code, 50_001);
    const stranger = await api<ApiError>(w.server.api, 'POST', '/interactions', {
      token: w.world.outsider.token,
      body: {
        type: 3,
        application_id: w.applicationId,
        channel_id: hidden,
        message_id: panel.id,
        data: { component_type: 2, custom_id: 'go' },
      },
      expect: 404,
    });
    assert.equal(stranger.code, 10_003);
  });
});
