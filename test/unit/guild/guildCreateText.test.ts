import assert from 'node:assert/strict';
import type { GuildCommand, GuildReply } from '../../../proto/gen/chorus/v1/guild.js';
import { listedMembers, type GuildCreateCut } from '../../../actors/guild/guildCreateText.js';
import type { VoiceState } from '../../../actors/guild/guildVoice.js';
import { memberJson } from '../../../actors/guild/guildJson.js';
import { guildCreatePayload } from '../../../actors/guild/guildSessions.js';
import { GuildState } from '../../../actors/guild/GuildState.js';
import { GuildChannelNode } from '../channel/GuildChannelNode.js';

const caller = (userId: string) => ({ userId, bot: false, rights: '0' });
const OWNER = '100000000000000001';
const MEMBER = '100000000000000002';
/** A user account in a guild of at most 250 members: the guild, up to 100 other members, online presences. */
const SMALL: GuildCreateCut = {
  otherMembers: 100,
  voiceMembers: false,
  presences: 'online',
  onlineLimit: 100,
  large: false,
};

function subscribed(reply: GuildReply): { guildJson: string; ownMemberJson: string } {
  assert.equal(reply.reply?.$case, 'subscribed');
  return reply.reply.subscribed;
}

function jsonOf(reply: GuildReply): Record<string, unknown> {
  assert.equal(reply.reply?.$case, 'json');
  return JSON.parse(reply.reply.json.json) as Record<string, unknown>;
}

/**
 * GUILD_CREATE text is joined from parts the Guild keeps between subscribes; after every kind of change
 * it must be the text JSON.stringify gives for the payload built from the stored guild.
 */
describe('GUILD_CREATE text cached by the Guild', () => {
  let node: GuildChannelNode;
  let guildId: string;
  let channelId: string;
  let sessions = 0;

  const guild = (command: GuildCommand['command']) => node.guild(guildId, command);
  const subscribe = async (userId: string) =>
    subscribed(
      await guild({
        $case: 'subscribe',
        subscribe: { sessionId: `s${(sessions += 1)}`, userId, intents: '0' },
      }),
    );

  /** The subscriber's GUILD_CREATE, built from the stores with no cache, and its own member. */
  async function uncached(userId: string, cut: GuildCreateCut): Promise<{ guildJson: string; ownMemberJson: string }> {
    const state = await GuildState.load(guildId, node.stores);
    assert.ok(state);
    const member = state.members.get(userId);
    assert.ok(member);
    return {
      guildJson: JSON.stringify(guildCreatePayload(state, userId, cut)),
      ownMemberJson: JSON.stringify(memberJson(member)),
    };
  }

  beforeEach(async () => {
    node = new GuildChannelNode();
    guildId = node.ids.next();
    await guild({
      $case: 'createGuild',
      createGuild: {
        caller: caller(OWNER),
        body: JSON.stringify({ name: 'Cached' }),
        ownerUserJson: JSON.stringify({ id: OWNER, username: 'owner' }),
      },
    });
    const created = await guild({
      $case: 'createChannel',
      createChannel: { caller: caller(OWNER), body: JSON.stringify({ name: 'chat', type: 0 }) },
    });
    channelId = String(jsonOf(created)['id']);
    await guild({
      $case: 'addMember',
      addMember: { userId: MEMBER, userJson: JSON.stringify({ id: MEMBER, username: 'member' }) },
    });
  });
  afterEach(() => node.close());

  it('lists the own member, then others up to the cut, then members in voice when the cut asks for them', async () => {
    const state = await GuildState.load(guildId, node.stores);
    assert.ok(state);
    const self = state.members.get(OWNER);
    assert.ok(self);
    const ids = (cut: Partial<GuildCreateCut>) =>
      listedMembers(state, self, { ...SMALL, ...cut }).map((member) => member.user_id);
    assert.deepEqual(ids({ otherMembers: 0 }), [OWNER], 'a lazy guild: the own member alone');
    assert.deepEqual(ids({ otherMembers: 100 }), [OWNER, MEMBER]);
    state.voiceStates.set(MEMBER, { userId: MEMBER } as VoiceState);
    assert.deepEqual(ids({ otherMembers: 0 }), [OWNER], 'voice members only when asked');
    assert.deepEqual(ids({ otherMembers: 0, voiceMembers: true }), [OWNER, MEMBER], 'a bot without GUILD_PRESENCES');
    assert.deepEqual(ids({ otherMembers: 100, voiceMembers: true }), [OWNER, MEMBER], 'listed once');
  });

  it('stays byte-identical to the uncached payload after each change to the guild', async () => {
    const changes: [string, () => Promise<unknown>][] = [
      ['nothing', () => Promise.resolve()],
      [
        'rename',
        () => guild({ $case: 'updateGuild', updateGuild: { caller: caller(OWNER), body: '{"name":"Renamed"}' } }),
      ],
      [
        'new role',
        () => guild({ $case: 'createRole', createRole: { caller: caller(OWNER), body: '{"name":"speaker"}' } }),
      ],
      [
        'nickname',
        () =>
          guild({
            $case: 'updateMember',
            updateMember: { caller: caller(OWNER), userId: MEMBER, body: '{"nick":"Nick"}' },
          }),
      ],
      [
        'message',
        async () => {
          await node.channel(channelId, {
            $case: 'createMessage',
            createMessage: { caller: caller(MEMBER), body: '{"content":"hello"}' },
          });
          // Its last_message_id reaches the store (the first flush writes what the one before it saw).
          await node.channel(channelId, { $case: 'flush', flush: {} });
          await node.channel(channelId, { $case: 'flush', flush: {} });
        },
      ],
      [
        'new channel',
        () =>
          guild({
            $case: 'createChannel',
            createChannel: { caller: caller(OWNER), body: '{"name":"more","type":0}' },
          }),
      ],
      [
        'new member',
        () =>
          guild({
            $case: 'addMember',
            addMember: { userId: '100000000000000003', userJson: '{"id":"100000000000000003","username":"third"}' },
          }),
      ],
    ];
    for (const [change, apply] of changes) {
      await apply();
      // The Guild reads stored last_message_ids again once its last read is 100 ms old.
      node.clock.advance(100);
      for (const userId of [MEMBER, OWNER]) {
        // Twice: the first may fill the parts, the second reads them.
        for (let round = 0; round < 2; round += 1) {
          assert.deepEqual(await subscribe(userId), await uncached(userId, SMALL), `after ${change}, ${userId}`);
        }
      }
    }
    assert.match((await subscribe(MEMBER)).guildJson, /"last_message_id":"\d+"/, 'the message is in the text');
  });
});
