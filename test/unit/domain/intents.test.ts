import assert from 'node:assert/strict';
import {
  allowsDispatch,
  dataSeenBy,
  EVENT_INTENTS,
  GatewayIntent,
  hasIntent,
  intentOf,
  KNOWN_INTENTS,
  PRIVILEGED_INTENTS,
  seesMessageContent,
  UNGATED,
  withoutMessageContent,
} from '../../../src/domain/intents.js';

const { GUILDS, GUILD_MESSAGES, DIRECT_MESSAGES, MESSAGE_CONTENT } = GatewayIntent;

describe('intents', () => {
  describe('bits', () => {
    it('uses Discord values', () => {
      assert.equal(GatewayIntent.GUILDS, 1);
      assert.equal(GatewayIntent.GUILD_MEMBERS, 2);
      assert.equal(GatewayIntent.GUILD_PRESENCES, 256);
      assert.equal(GatewayIntent.GUILD_MESSAGES, 512);
      assert.equal(GatewayIntent.MESSAGE_CONTENT, 32768);
      assert.equal(GatewayIntent.DIRECT_MESSAGE_POLLS, 1 << 25);
    });

    it('knows bits 0-16, 20, 21, 24 and 25 only', () => {
      assert.equal(KNOWN_INTENTS, 0x1ffffn | (1n << 20n) | (1n << 21n) | (1n << 24n) | (1n << 25n));
    });

    it('marks presences, members and message content privileged', () => {
      assert.equal(PRIVILEGED_INTENTS, (1 << 8) | (1 << 1) | (1 << 15));
    });
  });

  describe('EVENT_INTENTS', () => {
    it('gates message events by GUILD_MESSAGES in guilds and DIRECT_MESSAGES in DMs', () => {
      assert.deepEqual(EVENT_INTENTS.MESSAGE_CREATE, { guild: GUILD_MESSAGES, dm: DIRECT_MESSAGES });
      assert.equal(intentOf('MESSAGE_DELETE_BULK', 'dm'), DIRECT_MESSAGES);
    });

    it('gates reactions and typing by their guild and DM intents', () => {
      assert.equal(intentOf('MESSAGE_REACTION_ADD', 'guild'), 1 << 10);
      assert.equal(intentOf('MESSAGE_REACTION_REMOVE_EMOJI', 'dm'), 1 << 13);
      assert.equal(intentOf('TYPING_START', 'guild'), 1 << 11);
      assert.equal(intentOf('TYPING_START', 'dm'), 1 << 14);
    });

    it('gates pins by GUILDS in guilds and DIRECT_MESSAGES in DMs; a DM channel event is not gated', () => {
      assert.deepEqual(EVENT_INTENTS.CHANNEL_PINS_UPDATE, { guild: GUILDS, dm: DIRECT_MESSAGES });
      assert.equal(intentOf('CHANNEL_CREATE', 'dm'), UNGATED);
    });

    it('gates guild events by their families', () => {
      assert.equal(intentOf('GUILD_ROLE_UPDATE', 'guild'), GUILDS);
      assert.equal(intentOf('GUILD_MEMBER_UPDATE', 'guild'), 1 << 1);
      assert.equal(intentOf('GUILD_BAN_ADD', 'guild'), 1 << 2);
      assert.equal(intentOf('GUILD_EMOJIS_UPDATE', 'guild'), 1 << 3);
      assert.equal(intentOf('WEBHOOKS_UPDATE', 'guild'), 1 << 5);
      assert.equal(intentOf('INVITE_DELETE', 'guild'), 1 << 6);
      assert.equal(intentOf('VOICE_STATE_UPDATE', 'guild'), 1 << 7);
    });

    it('names only intents Discord defines', () => {
      for (const { guild, dm } of Object.values(EVENT_INTENTS)) {
        for (const intent of [guild, dm]) assert.equal((BigInt(intent) & ~KNOWN_INTENTS) === 0n, true);
      }
    });
  });

  describe('allowsDispatch', () => {
    it('always passes an ungated event (intent 0)', () => {
      assert.equal(allowsDispatch(0, UNGATED), true);
      assert.equal(allowsDispatch(0n, UNGATED), true);
    });

    it('passes an event whose intent the session holds', () => {
      assert.equal(allowsDispatch(1 << 9, GUILD_MESSAGES), true);
      assert.equal(allowsDispatch(1n << 12n, DIRECT_MESSAGES), true);
    });

    it('drops an event whose intent the session lacks', () => {
      assert.equal(allowsDispatch(1 | (1 << 15), GUILD_MESSAGES), false);
      assert.equal(allowsDispatch(1n << 9n, DIRECT_MESSAGES), false);
    });

    it('reads bits above 31 arithmetically', () => {
      assert.equal(hasIntent(2 ** 40, 2 ** 40), true);
      assert.equal(hasIntent(2 ** 40, 2 ** 8), false);
      assert.equal(hasIntent(2 ** 40 + 2 ** 9, GUILD_MESSAGES), true);
    });
  });

  describe('seesMessageContent', () => {
    it('is true for users and for bots with MESSAGE_CONTENT', () => {
      assert.equal(seesMessageContent(false, 0), true);
      assert.equal(seesMessageContent(true, MESSAGE_CONTENT), true);
      assert.equal(seesMessageContent(true, GUILDS | GUILD_MESSAGES), false);
    });
  });

  describe('dataSeenBy', () => {
    const dispatch = {
      event: 'MESSAGE_CREATE',
      dataJson: JSON.stringify({ guild_id: '5', content: 'x', mentions: [] }),
    };

    it('strips guild message content for a bot without MESSAGE_CONTENT only', () => {
      assert.equal(dataSeenBy(false, 0, '200', dispatch), dispatch.dataJson);
      assert.equal(dataSeenBy(true, MESSAGE_CONTENT, '200', dispatch), dispatch.dataJson);
      assert.equal((JSON.parse(dataSeenBy(true, GUILDS, '200', dispatch)) as { content: string }).content, '');
    });
  });

  describe('withoutMessageContent', () => {
    const message = {
      id: '9',
      guild_id: '5',
      channel_id: '6',
      author: { id: '100' },
      content: 'secret',
      embeds: [{ title: 't' }],
      attachments: [{ id: '1' }],
      components: [{ type: 1 }],
      mentions: [] as { id: string }[],
    };

    it('empties content, embeds, attachments and components of a guild message', () => {
      const out = JSON.parse(withoutMessageContent('MESSAGE_CREATE', JSON.stringify(message), '200')) as typeof message;
      assert.equal(out.content, '');
      assert.deepEqual([out.embeds, out.attachments, out.components], [[], [], []]);
      assert.equal(out.id, '9');
    });

    it('keeps the content of the bot’s own messages, of mentions of it and of DMs', () => {
      const own = JSON.stringify({ ...message, author: { id: '200' } });
      const mention = JSON.stringify({ ...message, mentions: [{ id: '200' }] });
      const dm = JSON.stringify({ ...message, guild_id: undefined });
      for (const json of [own, mention, dm]) assert.equal(withoutMessageContent('MESSAGE_CREATE', json, '200'), json);
    });

    it('leaves other events alone', () => {
      const json = JSON.stringify({ id: '1', content: 'x', guild_id: '5' });
      assert.equal(withoutMessageContent('MESSAGE_DELETE', json, '200'), json);
    });
  });
});
