import assert from 'node:assert/strict';
import { Permission } from '../../../src/domain/permissions.js';
import { api, registerUser, type TestUser } from '../../support/testServer.js';
import {
  connect,
  createGuild,
  fails,
  grant,
  guildReady,
  member,
  startHarness,
  type GuildHarness,
  type TestGuild,
} from '../guilds/guildKit.js';

interface Message {
  id: string;
  flags: number;
}

describe('POST /channels/{id}/messages/{message_id}/crosspost', () => {
  let h: GuildHarness;
  let target: TestGuild;
  let writer: TestUser;
  let editor: TestUser;
  let announcements = '';

  before(async () => {
    h = await startHarness();
    target = await createGuild(h.api, await registerUser(h.api, 'owner'));
    writer = await member(h.api, target, 'writer');
    editor = await member(h.api, target, 'editor');
    await grant(h.api, target, editor, Permission.MANAGE_MESSAGES, 'editors');
    const channel = await api<{ id: string; type: number }>(h.api, 'POST', `/guilds/${target.guild.id}/channels`, {
      token: target.owner.token,
      body: { name: 'news', type: 5 },
      expect: 201,
    });
    assert.equal(channel.type, 5);
    announcements = channel.id;
  });
  after(async () => {
    await h.stop();
  });

  const post = (channelId: string, user: TestUser) =>
    api<Message>(h.api, 'POST', `/channels/${channelId}/messages`, { token: user.token, body: { content: 'news' } });
  const path = (channelId: string, messageId: string) => `/channels/${channelId}/messages/${messageId}/crosspost`;

  it("publishes the author's message once: CROSSPOSTED in the reply, in MESSAGE_UPDATE and when read", async () => {
    const message = await post(announcements, writer);
    const socket = await connect(h.gatewayUrl, target.owner);
    try {
      await guildReady(socket, target.guild.id);
      const published = await api<Message>(h.api, 'POST', path(announcements, message.id), { token: writer.token });
      assert.equal([published.id, published.flags & 1].join(), [message.id, 1].join());
      await socket.waitForDispatch<Message>('MESSAGE_UPDATE', (d) => d.id === message.id && (d.flags & 1) === 1);
    } finally {
      await socket.close();
    }
    const read = await api<Message>(h.api, 'GET', `/channels/${announcements}/messages/${message.id}`, {
      token: target.owner.token,
    });
    assert.equal(read.flags & 1, 1);
    await fails(h.api, 'POST', path(announcements, message.id), writer, 400, 40_033);
  });

  it("lets MANAGE_MESSAGES publish another member's message, and nobody else", async () => {
    const message = await post(announcements, target.owner);
    await fails(h.api, 'POST', path(announcements, message.id), writer, 403, 50_013);
    const published = await api<Message>(h.api, 'POST', path(announcements, message.id), { token: editor.token });
    assert.equal(published.flags & 1, 1);
  });

  it('refuses a message outside an announcement channel (50024) and an unknown one (10008)', async () => {
    const message = await post(target.textChannelId, writer);
    await fails(h.api, 'POST', path(target.textChannelId, message.id), writer, 400, 50_024);
    await fails(h.api, 'POST', path(announcements, '123456789012345678'), writer, 404, 10_008);
  });
});
