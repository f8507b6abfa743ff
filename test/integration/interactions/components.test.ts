import assert from 'node:assert/strict';
import {
  ActionRowBuilder,
  ButtonBuilder,
  ButtonStyle,
  LabelBuilder,
  MessageFlags,
  ModalBuilder,
  StringSelectMenuBuilder,
  TextInputBuilder,
  TextInputStyle,
  type AutocompleteInteraction,
  type ButtonInteraction,
  type ChatInputCommandInteraction,
  type Message,
  type ModalSubmitInteraction,
  type MessageContextMenuCommandInteraction,
  type StringSelectMenuInteraction,
  type UserContextMenuCommandInteraction,
  type TextChannel,
} from 'discord.js';
import type { ApiMessage } from '../messages/messageFixtures.js';
import {
  guildCommand,
  interactionWorld,
  invoke,
  nextInteraction,
  type ApiCommand,
  type InteractionWorld,
} from './interactionFixtures.js';

type InteractionMessage = ApiMessage & { interaction_metadata?: { id: string; type: number } };

describe('components, modals and autocomplete through discord.js', function () {
  this.timeout(30_000);
  let w: InteractionWorld;
  let panel: Message;
  let form: ApiCommand;
  let search: ApiCommand;

  before(async () => {
    w = await interactionWorld();
    const channel = (await w.bot.channels.fetch(w.channelId)) as TextChannel;
    panel = await channel.send({
      content: 'panel',
      components: [
        new ActionRowBuilder<ButtonBuilder>().addComponents(
          new ButtonBuilder().setCustomId('bump').setLabel('Bump').setStyle(ButtonStyle.Primary),
          new ButtonBuilder().setCustomId('off').setLabel('Off').setStyle(ButtonStyle.Secondary).setDisabled(true),
        ),
        new ActionRowBuilder<StringSelectMenuBuilder>().addComponents(
          new StringSelectMenuBuilder()
            .setCustomId('pick')
            .setMaxValues(2)
            .addOptions({ label: 'A', value: 'a' }, { label: 'B', value: 'b' }, { label: 'C', value: 'c' }),
        ),
      ],
    });
    form = await guildCommand(w, { name: 'form', description: 'Opens a form' });
    search = await guildCommand(w, {
      name: 'search',
      description: 'Searches',
      options: [{ type: 3, name: 'query', description: 'What to find', required: true, autocomplete: true }],
    });
  });

  after(async () => {
    await w?.stop();
  });

  it('delivers a button click with its message, and update() edits that message', async () => {
    const received = nextInteraction<ButtonInteraction>(w.bot, (i) => i.isButton());
    const from = w.user.frames.length;
    const response = await invoke(w, { type: 3, message_id: panel.id, data: { component_type: 2, custom_id: 'bump' } });
    assert.equal(response.status, 204, await response.text());
    const click = await received;
    assert.equal(click.customId, 'bump');
    assert.equal(click.message.id, panel.id);
    assert.equal(click.user.id, w.world.member.id);
    await click.update({ content: 'bumped' });
    const update = await w.user.waitForDispatch<InteractionMessage>('MESSAGE_UPDATE', (d) => d.id === panel.id, {
      from,
    });
    assert.equal(update.d.content, 'bumped');
    await w.user.waitForDispatch('INTERACTION_SUCCESS', (d: { id?: string }) => d.id === click.id, { from });
  });

  it('delivers the chosen values of a string select, answered with a reply', async () => {
    const received = nextInteraction<StringSelectMenuInteraction>(w.bot, (i) => i.isStringSelectMenu());
    const from = w.user.frames.length;
    const response = await invoke(w, {
      type: 3,
      message_id: panel.id,
      data: { component_type: 3, custom_id: 'pick', values: ['a', 'c'] },
    });
    assert.equal(response.status, 204, await response.text());
    const select = await received;
    assert.deepEqual(select.values, ['a', 'c']);
    await select.reply(`picked ${select.values.join('+')}`);
    const created = await w.user.waitForDispatch<InteractionMessage>(
      'MESSAGE_CREATE',
      (d) => d.content === 'picked a+c',
      { from },
    );
    assert.equal(created.d.type, 0);
    assert.equal(created.d.interaction_metadata?.type, 3);
  });

  it('shows a modal to the invoker, whose submission reaches the bot with the values', async () => {
    const opened = nextInteraction<ChatInputCommandInteraction>(w.bot, (i) => i.isChatInputCommand());
    const from = w.user.frames.length;
    const response = await invoke(w, { type: 2, data: { id: form.id, name: 'form', type: 1 } });
    assert.equal(response.status, 204, await response.text());
    const command = await opened;
    // The action-row modal: Discord still takes it, though discord.js now prefers label components (next test).
    /* eslint-disable @typescript-eslint/no-deprecated */
    await command.showModal(
      new ModalBuilder()
        .setCustomId('profile')
        .setTitle('Profile')
        .addComponents(
          new ActionRowBuilder<TextInputBuilder>().addComponents(
            new TextInputBuilder().setCustomId('name').setLabel('Name').setStyle(TextInputStyle.Short).setMaxLength(20),
          ),
        ),
    );
    /* eslint-enable @typescript-eslint/no-deprecated */
    const modal = await w.user.waitForDispatch<{ id: string; custom_id: string; title: string; nonce: string }>(
      'INTERACTION_MODAL_CREATE',
      (d) => d.custom_id === 'profile',
      { from },
    );
    assert.equal(modal.d.title, 'Profile');
    const submitted = nextInteraction<ModalSubmitInteraction>(w.bot, (i) => i.isModalSubmit());
    const submit = await invoke(w, {
      type: 5,
      data: {
        id: modal.d.id,
        custom_id: 'profile',
        components: [{ type: 1, components: [{ type: 4, custom_id: 'name', value: 'Ada' }] }],
      },
    });
    assert.equal(submit.status, 204, await submit.text());
    const submission = await submitted;
    assert.equal(submission.customId, 'profile');
    assert.equal(submission.fields.getTextInputValue('name'), 'Ada');
    await submission.reply('hello Ada');
    await w.user.waitForDispatch<InteractionMessage>('MESSAGE_CREATE', (d) => d.content === 'hello Ada', { from });
  });

  it('asks the bot for autocomplete choices and hands them to the invoker', async () => {
    const asked = nextInteraction<AutocompleteInteraction>(w.bot, (i) => i.isAutocomplete());
    const from = w.user.frames.length;
    const response = await invoke(w, {
      type: 4,
      data: {
        id: search.id,
        name: 'search',
        type: 1,
        options: [{ type: 3, name: 'query', value: 'ap', focused: true }],
      },
    });
    assert.equal(response.status, 204, await response.text());
    const autocomplete = await asked;
    assert.equal(autocomplete.options.getFocused(), 'ap');
    await autocomplete.respond([
      { name: 'apple', value: 'apple' },
      { name: 'apricot', value: 'apricot' },
    ]);
    const choices = await w.user.waitForDispatch<{ choices: { name: string; value: string }[]; nonce: string }>(
      'APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE',
      () => true,
      { from },
    );
    assert.deepEqual(
      choices.d.choices.map((choice) => choice.value),
      ['apple', 'apricot'],
    );
  });

  it('delivers user and message context menu commands with their resolved targets', async () => {
    const userMenu = await guildCommand(w, { name: 'Wave at', type: 2 });
    const messageMenu = await guildCommand(w, { name: 'Quote', type: 3 });
    const waved = nextInteraction<UserContextMenuCommandInteraction>(w.bot, (i) => i.isUserContextMenuCommand());
    const onUser = await invoke(w, { type: 2, data: { id: userMenu.id, type: 2, target_id: w.world.owner.id } });
    assert.equal(onUser.status, 204, await onUser.text());
    const wave = await waved;
    assert.equal(wave.targetUser.id, w.world.owner.id);
    await wave.reply('wave');
    const quoted = nextInteraction<MessageContextMenuCommandInteraction>(w.bot, (i) => i.isMessageContextMenuCommand());
    const onMessage = await invoke(w, { type: 2, data: { id: messageMenu.id, type: 3, target_id: panel.id } });
    assert.equal(onMessage.status, 204, await onMessage.text());
    const quote = await quoted;
    assert.equal(quote.targetMessage.id, panel.id);
    await quote.reply(`> ${quote.targetMessage.content}`);
  });

  it("shows a modal built from label components, submitted as Discord's client submits the rows it got", async () => {
    const opened = nextInteraction<ChatInputCommandInteraction>(w.bot, (i) => i.isChatInputCommand());
    const from = w.user.frames.length;
    const response = await invoke(w, { type: 2, data: { id: form.id, name: 'form', type: 1 } });
    assert.equal(response.status, 204, await response.text());
    const command = await opened;
    const input = new TextInputBuilder().setCustomId('city').setStyle(TextInputStyle.Short).setRequired(true);
    await command.showModal(
      new ModalBuilder()
        .setCustomId('where')
        .setTitle('Where')
        .addLabelComponents(new LabelBuilder().setLabel('City').setTextInputComponent(input)),
    );
    const modal = await w.user.waitForDispatch<{
      id: string;
      components: { type: number; components: { label: string }[] }[];
    }>('INTERACTION_MODAL_CREATE', (d) => (d as { custom_id?: string }).custom_id === 'where', { from });
    assert.equal(modal.d.components[0]?.components[0]?.label, 'City');
    const submitted = nextInteraction<ModalSubmitInteraction>(w.bot, (i) => i.isModalSubmit());
    const submit = await invoke(w, {
      type: 5,
      data: {
        id: modal.d.id,
        custom_id: 'where',
        components: [{ type: 1, components: [{ type: 4, custom_id: 'city', value: 'Lyon' }] }],
      },
    });
    assert.equal(submit.status, 204, await submit.text());
    const submission = await submitted;
    assert.equal(submission.fields.getTextInputValue('city'), 'Lyon');
    await submission.reply('Lyon it is');
  });

  it('lets the invoker click a button of an ephemeral reply, which update() changes for them alone', async () => {
    const opened = nextInteraction<ChatInputCommandInteraction>(w.bot, (i) => i.isChatInputCommand());
    const from = w.user.frames.length;
    const response = await invoke(w, { type: 2, data: { id: form.id, name: 'form', type: 1 } });
    assert.equal(response.status, 204, await response.text());
    const command = await opened;
    const row = new ActionRowBuilder<ButtonBuilder>().addComponents(
      new ButtonBuilder().setCustomId('confirm').setLabel('Confirm').setStyle(ButtonStyle.Success),
    );
    await command.reply({ content: 'sure?', components: [row], flags: MessageFlags.Ephemeral });
    const shown = await w.user.waitForDispatch<InteractionMessage>('MESSAGE_CREATE', (d) => d.content === 'sure?', {
      from,
    });
    const clicked = nextInteraction<ButtonInteraction>(w.bot, (i) => i.isButton() && i.customId === 'confirm');
    const click = await invoke(w, {
      type: 3,
      message_id: shown.d.id,
      data: { component_type: 2, custom_id: 'confirm' },
    });
    assert.equal(click.status, 204, await click.text());
    const button = await clicked;
    assert.equal(button.message.id, shown.d.id);
    await button.update({ content: 'confirmed', components: [] });
    const updated = await w.user.waitForDispatch<InteractionMessage>('MESSAGE_UPDATE', (d) => d.id === shown.d.id, {
      from,
    });
    assert.equal(updated.d.content, 'confirmed');
    const stranger = await invoke(
      w,
      { type: 3, message_id: shown.d.id, data: { component_type: 2, custom_id: 'confirm' } },
      w.world.owner.token,
    );
    assert.equal(stranger.status, 404, await stranger.text());
  });
});
