import assert from 'node:assert/strict';
import { MessageFlags, type ChatInputCommandInteraction } from 'discord.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api } from '../../support/testServer.js';
import type { ApiMessage } from '../messages/messageFixtures.js';
import {
  guildCommand,
  interactionWorld,
  invoke,
  nextInteraction,
  type ApiCommand,
  type InteractionWorld,
} from './interactionFixtures.js';

type InteractionMessage = ApiMessage & {
  flags: number;
  webhook_id?: string;
  application_id?: string;
  interaction_metadata?: { id: string; type: number; user: { id: string }; name?: string; command_type?: number };
};

describe('slash commands through discord.js', function () {
  this.timeout(30_000);
  let w: InteractionWorld;
  let ping: ApiCommand;

  before(async () => {
    w = await interactionWorld();
    ping = await guildCommand(w, {
      name: 'ping',
      description: 'Answers pong',
      options: [{ type: 3, name: 'word', description: 'A word', required: false }],
    });
  });

  after(async () => {
    await w?.stop();
  });

  it('delivers the command to the bot, whose reply is a message by the bot with interaction_metadata', async () => {
    const received = nextInteraction<ChatInputCommandInteraction>(w.bot, (i) => i.isChatInputCommand());
    const from = w.user.frames.length;
    const response = await invoke(w, {
      type: 2,
      data: { id: ping.id, name: 'ping', type: 1, options: [{ type: 3, name: 'word', value: 'hello' }] },
    });
    assert.equal(response.status, 204, await response.text());
    const interaction = await received;
    assert.equal(interaction.commandName, 'ping');
    assert.equal(interaction.options.getString('word'), 'hello');
    assert.equal(interaction.user.id, w.world.member.id);
    assert.equal(interaction.guildId, w.world.guildId);
    assert.equal(interaction.channelId, w.channelId);
    await interaction.reply('pong hello');
    const created = await w.user.waitForDispatch<InteractionMessage>(
      'MESSAGE_CREATE',
      (d) => d.content === 'pong hello',
      { from },
    );
    assert.equal(created.d.author.id, w.bot.user?.id);
    assert.equal(created.d.webhook_id, w.applicationId);
    assert.equal(created.d.application_id, w.applicationId);
    assert.equal(created.d.type, 20);
    assert.equal(created.d.interaction_metadata?.id, interaction.id);
    assert.equal(created.d.interaction_metadata?.user.id, w.world.member.id);
    assert.equal(created.d.interaction_metadata?.name, 'ping');
    await w.user.waitForDispatch('INTERACTION_SUCCESS', (d: { id?: string }) => d.id === interaction.id, { from });
    const stored = await api<InteractionMessage>(
      w.server.api,
      'GET',
      `/channels/${w.channelId}/messages/${created.d.id}`,
      {
        token: w.world.member.token,
      },
    );
    assert.equal(stored.content, 'pong hello');
  });

  /** Invokes /ping as the member and resolves with the interaction discord.js emits for it. */
  async function ping_(word?: string): Promise<ChatInputCommandInteraction> {
    const received = nextInteraction<ChatInputCommandInteraction>(w.bot, (i) => i.isChatInputCommand());
    const options = word === undefined ? [] : [{ type: 3, name: 'word', value: word }];
    const response = await invoke(w, { type: 2, data: { id: ping.id, name: 'ping', type: 1, options } });
    assert.equal(response.status, 204, await response.text());
    return received;
  }

  it('shows a deferred response loading, then as editReply changed it', async () => {
    const interaction = await ping_('later');
    const from = w.user.frames.length;
    await interaction.deferReply();
    const loading = await w.user.waitForDispatch<InteractionMessage>(
      'MESSAGE_CREATE',
      (d) => d.interaction_metadata?.id === interaction.id,
      { from },
    );
    assert.equal(loading.d.flags & 128, 128, 'LOADING');
    assert.equal(loading.d.content, '');
    const edited = await interaction.editReply('done later');
    assert.equal(edited.id, loading.d.id);
    assert.equal(edited.content, 'done later');
    const update = await w.user.waitForDispatch<InteractionMessage>('MESSAGE_UPDATE', (d) => d.id === loading.d.id, {
      from,
    });
    assert.equal(update.d.content, 'done later');
    assert.equal(update.d.flags & 128, 0);
    const fetched = await interaction.fetchReply();
    assert.equal(fetched.content, 'done later');
  });

  it('sends followups as new messages of the interaction, and deletes the original', async () => {
    const interaction = await ping_();
    await interaction.reply('first');
    const followup = await interaction.followUp('second');
    assert.equal(followup.content, 'second');
    assert.equal(followup.webhookId, w.applicationId);
    const stored = await api<InteractionMessage>(
      w.server.api,
      'GET',
      `/channels/${w.channelId}/messages/${followup.id}`,
      {
        token: w.world.member.token,
      },
    );
    assert.equal(stored.interaction_metadata?.id, interaction.id);
    const original = await interaction.fetchReply();
    const from = w.user.frames.length;
    await interaction.deleteReply();
    await w.user.waitForDispatch('MESSAGE_DELETE', (d: { id?: string }) => d.id === original.id, { from });
    await api(w.server.api, 'GET', `/channels/${w.channelId}/messages/${original.id}`, {
      token: w.world.member.token,
      expect: 404,
    });
  });

  it('shows an ephemeral reply to the invoker only, and keeps it out of the channel history', async () => {
    const { client: owner } = await GatewayClient.identified(w.server.gatewayUrl, w.world.owner.token);
    try {
      const interaction = await ping_('secret');
      const from = w.user.frames.length;
      const ownerFrom = owner.frames.length;
      await interaction.reply({ content: 'only you', flags: MessageFlags.Ephemeral });
      const created = await w.user.waitForDispatch<InteractionMessage>(
        'MESSAGE_CREATE',
        (d) => d.content === 'only you',
        { from },
      );
      assert.equal(created.d.flags & 64, 64);
      const fetched = await interaction.fetchReply();
      assert.equal(fetched.content, 'only you');
      await interaction.editReply('still only you');
      await w.user.waitForDispatch<InteractionMessage>('MESSAGE_UPDATE', (d) => d.id === created.d.id, { from });
      // A message after it reaches the owner: had the ephemeral one reached them, it would have come first.
      await interaction.followUp('for everyone');
      await owner.waitForDispatch<InteractionMessage>('MESSAGE_CREATE', (d) => d.content === 'for everyone', {
        from: ownerFrom,
      });
      assert.ok(!owner.dispatches<InteractionMessage>('MESSAGE_CREATE').some((f) => f.d.id === created.d.id));
      await api(w.server.api, 'GET', `/channels/${w.channelId}/messages/${created.d.id}`, {
        token: w.world.member.token,
        expect: 404,
      });
    } finally {
      await owner.close();
    }
  });

  it('serves a global command in a DM with the bot, the invoker as user rather than member', async () => {
    const created = await w.bot.application?.commands.create({ name: 'dmhello', description: 'Hello in DMs' });
    assert.ok(created);
    const dm = await api<{ id: string }>(w.server.api, 'POST', '/users/@me/channels', {
      token: w.world.member.token,
      body: { recipients: [w.bot.user?.id] },
    });
    const received = nextInteraction<ChatInputCommandInteraction>(w.bot, (i) => i.isChatInputCommand());
    const from = w.user.frames.length;
    const response = await invoke(w, {
      type: 2,
      channel_id: dm.id,
      guild_id: undefined,
      data: { id: created.id, type: 1 },
    });
    assert.equal(response.status, 204, await response.text());
    const interaction = await received;
    assert.equal(interaction.guildId, null);
    assert.equal(interaction.member, null);
    assert.equal(interaction.user.id, w.world.member.id);
    assert.equal(interaction.channelId, dm.id);
    await interaction.reply('hello in private');
    const message = await w.user.waitForDispatch<InteractionMessage>(
      'MESSAGE_CREATE',
      (d) => d.content === 'hello in private',
      {
        from,
      },
    );
    assert.equal(message.d.channel_id, dm.id);
  });

  it('resolves user, member, role and channel options server-side for the bot', async () => {
    const inspect = await guildCommand(w, {
      name: 'inspect',
      description: 'Looks at things',
      options: [
        { type: 6, name: 'who', description: 'A user', required: true },
        { type: 8, name: 'role', description: 'A role', required: true },
        { type: 7, name: 'where', description: 'A channel', required: true },
      ],
    });
    const received = nextInteraction<ChatInputCommandInteraction>(w.bot, (i) => i.isChatInputCommand());
    const options = [
      { type: 6, name: 'who', value: w.world.owner.id },
      { type: 8, name: 'role', value: w.world.guildId },
      { type: 7, name: 'where', value: w.channelId },
    ];
    const response = await invoke(w, { type: 2, data: { id: inspect.id, type: 1, options } });
    assert.equal(response.status, 204, await response.text());
    const interaction = await received;
    assert.equal(interaction.options.getUser('who')?.username, w.world.owner.username);
    assert.ok(interaction.options.getMember('who'), 'the member is resolved');
    assert.equal(interaction.options.getRole('role')?.name, '@everyone');
    assert.equal(interaction.options.getChannel('where')?.id, w.channelId);
    await interaction.reply('seen');
    const unknownRole = await invoke(w, {
      type: 2,
      data: {
        id: inspect.id,
        type: 1,
        options: [...options.slice(0, 1), { type: 8, name: 'role', value: '123456789012345678' }, options[2]],
      },
    });
    assert.equal(unknownRole.status, 400, await unknownRole.text());
  });

  it("takes an invocation sent as Discord's client sends it: multipart with payload_json", async () => {
    const received = nextInteraction<ChatInputCommandInteraction>(w.bot, (i) => i.isChatInputCommand());
    const form = new FormData();
    const payload = {
      type: 2,
      application_id: w.applicationId,
      guild_id: w.world.guildId,
      channel_id: w.channelId,
      session_id: 'web-session',
      nonce: '1234567890123456789',
      data: {
        version: ping.id,
        id: ping.id,
        name: 'ping',
        type: 1,
        options: [{ type: 3, name: 'word', value: 'form' }],
      },
    };
    form.append('payload_json', JSON.stringify(payload));
    const response = await fetch(`${w.server.api}/interactions`, {
      method: 'POST',
      headers: { authorization: w.world.member.token },
      body: form,
    });
    assert.equal(response.status, 204, await response.text());
    const interaction = await received;
    assert.equal(interaction.options.getString('word'), 'form');
    await interaction.reply('from a form');
  });

  it('carries files in a reply, a followup and an edit', async () => {
    const interaction = await ping_('files');
    const from = w.user.frames.length;
    await interaction.reply({
      content: 'with a file',
      files: [{ attachment: Buffer.from('first'), name: 'first.txt' }],
    });
    const created = await w.user.waitForDispatch<
      InteractionMessage & { attachments: { filename: string; url: string }[] }
    >('MESSAGE_CREATE', (d) => d.content === 'with a file', { from });
    assert.deepEqual(
      created.d.attachments.map((file) => file.filename),
      ['first.txt'],
    );
    const bytes = await fetch(created.d.attachments[0]?.url ?? '').then((response) => response.text());
    assert.equal(bytes, 'first');
    const followup = await interaction.followUp({
      content: 'another',
      files: [{ attachment: Buffer.from('second'), name: 'second.txt' }],
    });
    assert.deepEqual(
      followup.attachments.map((file) => file.name),
      ['second.txt'],
    );
    // discord.js lists only the new file in `attachments`: as on Discord, the unlisted first one goes.
    const edited = await interaction.editReply({ files: [{ attachment: Buffer.from('third'), name: 'third.txt' }] });
    assert.deepEqual(
      edited.attachments.map((file) => file.name),
      ['third.txt'],
    );
  });
});
