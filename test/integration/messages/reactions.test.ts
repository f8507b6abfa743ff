import assert from 'node:assert/strict';
import { api, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import {
  Bits,
  fails,
  guildWorld,
  memberOverwrite,
  send,
  textChannel,
  type ApiMessage,
  type GuildWorld,
} from './messageFixtures.js';

const THUMBS = encodeURIComponent('👍');

describe('reactions', () => {
  let server: TestServer;
  let world: GuildWorld;
  let channel: string;

  const path = (messageId: string, rest = '') => `/channels/${channel}/messages/${messageId}/reactions${rest}`;
  const react = (user: TestUser, messageId: string, emoji = THUMBS, expect = 204) =>
    api(server.api, 'PUT', path(messageId, `/${emoji}/@me`), { token: user.token, expect });
  const read = (user: TestUser, messageId: string) =>
    api<ApiMessage>(server.api, 'GET', `/channels/${channel}/messages/${messageId}`, { token: user.token });

  before(async () => {
    server = await startTestServer();
    world = await guildWorld(server.api);
    channel = await textChannel(server.api, world, 'reactions');
  });

  after(async () => {
    await server.stop();
  });

  it('counts reactions and marks the caller’s own with me', async () => {
    const message = await send(server.api, world.owner, channel, { content: 'vote' });
    await react(world.member, message.id);
    await react(world.owner, message.id);
    await react(world.owner, message.id); // adding twice is a no-op
    const seenByMember = await read(world.member, message.id);
    assert.deepEqual(seenByMember.reactions, [
      {
        emoji: { id: null, name: '👍' },
        count: 2,
        count_details: { burst: 0, normal: 2 },
        me: true,
        me_burst: false,
        burst_colors: [],
        burst_count: 0,
      },
    ]);
    await api(server.api, 'DELETE', path(message.id, `/${THUMBS}/@me`), { token: world.member.token, expect: 204 });
    const seenAgain = await read(world.member, message.id);
    assert.equal(seenAgain.reactions?.[0]?.count, 1);
    assert.equal(seenAgain.reactions?.[0]?.me, false);
  });

  it('lists the users who reacted, by id, with limit and after', async () => {
    const message = await send(server.api, world.owner, channel, { content: 'who?' });
    await react(world.owner, message.id);
    await react(world.member, message.id);
    const everyone = await api<{ id: string; username: string }[]>(server.api, 'GET', path(message.id, `/${THUMBS}`), {
      token: world.member.token,
    });
    const sorted = [world.owner.id, world.member.id].sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    assert.deepEqual(
      everyone.map((user) => user.id),
      sorted,
    );
    assert.ok(everyone.every((user) => typeof user.username === 'string'));
    const second = await api<{ id: string }[]>(
      server.api,
      'GET',
      path(message.id, `/${THUMBS}?limit=1&after=${sorted[0]}`),
      {
        token: world.member.token,
      },
    );
    assert.deepEqual(
      second.map((user) => user.id),
      [sorted[1]],
    );
  });

  it('accepts custom emoji as name:id and refuses text that is no emoji (10014)', async () => {
    const message = await send(server.api, world.owner, channel, { content: 'custom' });
    await react(world.member, message.id, encodeURIComponent('party:112233445566778899'));
    const seen = await read(world.owner, message.id);
    assert.deepEqual(seen.reactions?.[0]?.emoji, { id: '112233445566778899', name: 'party' });
    const error = await api<{ code: number }>(server.api, 'PUT', path(message.id, '/notanemoji/@me'), {
      token: world.member.token,
      expect: 400,
    });
    assert.equal(error.code, 10_014);
  });

  it('refuses to remove another user’s reaction without MANAGE_MESSAGES (50013)', async () => {
    const message = await send(server.api, world.member, channel, { content: 'mine' });
    await react(world.owner, message.id);
    const error = await fails(
      server.api,
      'DELETE',
      path(message.id, `/${THUMBS}/${world.owner.id}`),
      world.member,
      403,
    );
    assert.equal(error.code, 50_013);
    await api(server.api, 'DELETE', path(message.id, `/${THUMBS}/${world.member.id}`), {
      token: world.owner.token,
      expect: 204,
    });
  });

  it('removes all reactions, or all of one emoji, with MANAGE_MESSAGES', async () => {
    const message = await send(server.api, world.member, channel, { content: 'clear' });
    await react(world.member, message.id);
    await react(world.member, message.id, encodeURIComponent('🎉'));
    const denied = await fails(server.api, 'DELETE', path(message.id), world.member, 403);
    assert.equal(denied.code, 50_013);
    await api(server.api, 'DELETE', path(message.id, `/${THUMBS}`), { token: world.owner.token, expect: 204 });
    assert.deepEqual(
      (await read(world.member, message.id)).reactions?.map((reaction) => reaction.emoji.name),
      ['🎉'],
    );
    await api(server.api, 'DELETE', path(message.id), { token: world.owner.token, expect: 204 });
    assert.deepEqual((await read(world.member, message.id)).reactions, []);
  });

  it('needs ADD_REACTIONS for a new emoji but not to join an existing one', async () => {
    const quiet = await textChannel(server.api, world, 'no-new-reactions');
    await memberOverwrite(server.api, world, quiet, world.member.id, 0n, Bits.ADD_REACTIONS);
    const message = await send(server.api, world.owner, quiet, { content: 'react?' });
    const fresh = `/channels/${quiet}/messages/${message.id}/reactions/${THUMBS}/@me`;
    const error = await fails(server.api, 'PUT', fresh, world.member, 403);
    assert.equal(error.code, 50_013);
    await api(server.api, 'PUT', fresh, { token: world.owner.token, expect: 204 });
    await api(server.api, 'PUT', fresh, { token: world.member.token, expect: 204 });
  });
});
