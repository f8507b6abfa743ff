import assert from 'node:assert/strict';
import type { ChatInputCommandInteraction } from 'discord.js';
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
});
