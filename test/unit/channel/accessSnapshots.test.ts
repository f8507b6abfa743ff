import assert from 'node:assert/strict';
import type { ChannelReply } from '../../../proto/gen/chorus/v1/channel.js';
import type { GuildReply } from '../../../proto/gen/chorus/v1/guild.js';
import { AppError } from '../../../src/domain/errors.js';
import { DEFAULT_EVERYONE_PERMISSIONS, Permission } from '../../../src/domain/permissions.js';
import { GuildChannelNode } from './GuildChannelNode.js';

const caller = (userId: string) => ({ userId, bot: false, rights: '0' });

function jsonOf(reply: GuildReply | ChannelReply): Record<string, unknown> {
  assert.equal(reply.reply?.$case, 'json');
  return JSON.parse(reply.reply.json.json) as Record<string, unknown>;
}

/** Rejects with the Discord error code `code`. */
function withCode(code: number): (error: unknown) => boolean {
  return (error) => error instanceof AppError && error.discordCode === code;
}

describe('Channel permission snapshots cached from the Guild', () => {
  let node: GuildChannelNode;
  let guildId: string;
  let channelId: string;
  const owner = '100000000000000001';
  const member = '100000000000000002';

  beforeEach(async () => {
    node = new GuildChannelNode();
    guildId = node.ids.next();
    const ownerUserJson = JSON.stringify({ id: owner, username: 'owner' });
    await node.guild(guildId, {
      $case: 'createGuild',
      createGuild: { caller: caller(owner), body: JSON.stringify({ name: 'Cache' }), ownerUserJson },
    });
    const created = await node.guild(guildId, {
      $case: 'createChannel',
      createChannel: { caller: caller(owner), body: JSON.stringify({ name: 'chat', type: 0 }) },
    });
    channelId = String(jsonOf(created)['id']);
    await node.guild(guildId, {
      $case: 'addMember',
      addMember: { userId: member, userJson: JSON.stringify({ id: member, username: 'member' }) },
    });
  });
  afterEach(() => node.close());

  function post(userId: string, content = 'hello'): Promise<ChannelReply> {
    const createMessage = { caller: caller(userId), body: JSON.stringify({ content }) };
    return node.channel(channelId, { $case: 'createMessage', createMessage });
  }

  const denyMemberSend = () =>
    node.guild(guildId, {
      $case: 'putOverwrite',
      putOverwrite: {
        caller: caller(owner),
        channelId,
        overwriteId: member,
        body: JSON.stringify({ type: 1, allow: '0', deny: Permission.SEND_MESSAGES.toString() }),
      },
    });

  it('asks the Guild once for a user, not for their next messages', async () => {
    await post(member);
    await post(member);
    await post(member);
    assert.deepEqual(node.accessAsks, [member]);
    await post(owner);
    assert.deepEqual(node.accessAsks, [member, owner], 'one snapshot per user');
  });

  it('refuses the next message (403 50013) once an overwrite denies SEND_MESSAGES', async () => {
    await post(member);
    await denyMemberSend();
    await assert.rejects(post(member), withCode(50_013));
    await post(owner); // the owner keeps every permission
  });

  const everyoneCannotSend = () =>
    node.guild(guildId, {
      $case: 'updateRole',
      updateRole: {
        caller: caller(owner),
        roleId: guildId,
        body: JSON.stringify({ permissions: (DEFAULT_EVERYONE_PERMISSIONS & ~Permission.SEND_MESSAGES).toString() }),
      },
    });

  it('refuses the next message once the @everyone role loses SEND_MESSAGES', async () => {
    await post(member);
    await everyoneCannotSend();
    await assert.rejects(post(member), withCode(50_013));
  });

  it('lets a member post once a role grants what an overwrite on @everyone denies', async () => {
    await node.guild(guildId, {
      $case: 'putOverwrite',
      putOverwrite: {
        caller: caller(owner),
        channelId,
        overwriteId: guildId,
        body: JSON.stringify({ type: 0, allow: '0', deny: Permission.SEND_MESSAGES.toString() }),
      },
    });
    await assert.rejects(post(member), withCode(50_013));
    const role = jsonOf(
      await node.guild(guildId, {
        $case: 'createRole',
        createRole: { caller: caller(owner), body: JSON.stringify({ name: 'speaker' }) },
      }),
    );
    await node.guild(guildId, {
      $case: 'putOverwrite',
      putOverwrite: {
        caller: caller(owner),
        channelId,
        overwriteId: String(role['id']),
        body: JSON.stringify({ type: 0, allow: Permission.SEND_MESSAGES.toString(), deny: '0' }),
      },
    });
    await assert.rejects(post(member), withCode(50_013), 'the role is not the member’s yet');
    await node.guild(guildId, {
      $case: 'addMemberRole',
      addMemberRole: { caller: caller(owner), userId: member, roleId: String(role['id']) },
    });
    await post(member);
  });

  it('sends the member object as updated (nick) in the next MESSAGE_CREATE', async () => {
    await post(member);
    await node.guild(guildId, {
      $case: 'updateMember',
      updateMember: { caller: caller(owner), userId: member, body: JSON.stringify({ nick: 'Renamed' }) },
    });
    await post(member);
    const nicks = node.messageCreates.map((event) => (event['member'] as { nick: unknown } | undefined)?.nick);
    assert.deepEqual(nicks, [null, 'Renamed']);
    assert.deepEqual(node.accessAsks, [member, member]);
  });

  it('does not let a kicked member post (404 10003), and keeps other users cached', async () => {
    await post(member);
    await post(owner);
    await node.guild(guildId, {
      $case: 'removeMember',
      removeMember: { caller: caller(owner), userId: member, body: '' },
    });
    await assert.rejects(post(member), withCode(10_003));
    await post(owner);
    assert.deepEqual(node.accessAsks, [member, owner, member], 'the owner was not asked for again');
  });

  it('refuses a timed-out member until the timeout ends, then lets them post with no event', async () => {
    await post(member);
    const until = new Date(node.clock.now() + 60_000).toISOString();
    await node.guild(guildId, {
      $case: 'updateMember',
      updateMember: {
        caller: caller(owner),
        userId: member,
        body: JSON.stringify({ communication_disabled_until: until }),
      },
    });
    await assert.rejects(post(member), withCode(50_013));
    await assert.rejects(post(member), withCode(50_013));
    assert.deepEqual(node.accessAsks, [member, member], 'the timed-out snapshot holds until the timeout ends');
    node.clock.advance(60_001);
    await post(member);
    assert.deepEqual(node.accessAsks, [member, member, member]);
  });

  it('does not let anyone post in a deleted channel', async () => {
    await post(member);
    await node.guild(guildId, {
      $case: 'deleteChannel',
      deleteChannel: { caller: caller(owner), channelId, body: '' },
    });
    await assert.rejects(post(member), withCode(10_003));
    await assert.rejects(post(owner), withCode(10_003));
  });

  it('tells the channels holding snapshots when the Guild activation stops, above every version it gave', async () => {
    await post(member);
    const [given = 0n] = node.answeredVersions;
    assert.equal(node.host.evict('guild', guildId), true);
    assert.deepEqual(
      node.invalidations.map(([channel, , user]) => [channel, user]),
      [[channelId, '']],
    );
    assert.ok((node.invalidations[0]?.[1] ?? 0n) > given);
  });

  it('tells only the channels holding a member’s snapshot when that member changes', async () => {
    await node.guild(guildId, {
      $case: 'updateMember',
      updateMember: { caller: caller(owner), userId: member, body: JSON.stringify({ nick: 'Early' }) },
    });
    assert.equal(node.invalidations.length, 0, 'no channel held a snapshot');
    await post(member);
    await post(owner);
    await node.guild(guildId, {
      $case: 'updateMember',
      updateMember: { caller: caller(owner), userId: owner, body: JSON.stringify({ nick: 'Boss' }) },
    });
    assert.deepEqual(
      node.invalidations.map(([channel, , user]) => [channel, user]),
      [[channelId, owner]],
    );
  });

  it('asks again after the Guild activation stops, since the next one knows no holders', async () => {
    await post(member);
    node.clock.advance(1_000);
    assert.equal(node.host.evict('guild', guildId), true);
    await post(member);
    assert.deepEqual(node.accessAsks, [member, member]);
    await denyMemberSend(); // told by the new activation, which noted the channel again
    await assert.rejects(post(member), withCode(50_013));
  });

  it('re-asks after a snapshot has aged past its bound (a lost invalidation stays stale for at most that)', async () => {
    await post(member);
    node.clock.advance(29_000);
    await post(member);
    assert.equal(node.accessAsks.length, 1);
    node.clock.advance(2_000);
    await post(member);
    assert.equal(node.accessAsks.length, 2);
  });

  it('does not load a passivated channel the Guild tells to drop its snapshots', async () => {
    await post(member);
    assert.equal(node.host.evict('channel', channelId), true);
    const loads = node.channelLoads;
    await everyoneCannotSend(); // tells the channel, and nothing else
    await node.channel(channelId, { $case: 'invalidateAccess', invalidateAccess: { version: '1', userId: '' } });
    assert.equal(node.channelLoads, loads, 'the channel was not loaded');
    assert.equal(node.host.passivateIdle(), 1, 'the woken activation stops');
    await assert.rejects(post(member), withCode(50_013));
  });
});
