import assert from 'node:assert/strict';
import { api, startTestServer, type TestServer } from '../../support/testServer.js';
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

describe('guild messages', () => {
  let server: TestServer;
  let world: GuildWorld;
  let channel: string;

  before(async () => {
    server = await startTestServer();
    world = await guildWorld(server.api);
    channel = await textChannel(server.api, world, 'general-chat');
  });

  after(async () => {
    await server.stop();
  });

  describe('create, get, edit, delete', () => {
    it('creates a message and reads it back', async () => {
      const sent = await send(server.api, world.member, channel, { content: 'hello guild' });
      assert.equal(sent.author.id, world.member.id);
      assert.equal(sent.author.username, world.member.username);
      const got = await api<ApiMessage>(server.api, 'GET', `/channels/${channel}/messages/${sent.id}`, {
        token: world.owner.token,
      });
      assert.equal(got.content, 'hello guild');
      assert.equal(got.id, sent.id);
    });

    it('edits the author’s own message and stamps edited_timestamp', async () => {
      const sent = await send(server.api, world.member, channel, { content: 'draft' });
      const edited = await api<ApiMessage>(server.api, 'PATCH', `/channels/${channel}/messages/${sent.id}`, {
        token: world.member.token,
        body: { content: 'final' },
      });
      assert.equal(edited.content, 'final');
      assert.ok(edited.edited_timestamp !== null);
    });

    it('refuses to edit another user’s message with 50005', async () => {
      const sent = await send(server.api, world.member, channel, { content: 'not yours' });
      const error = await fails(server.api, 'PATCH', `/channels/${channel}/messages/${sent.id}`, world.owner, 403, {
        content: 'hijacked',
      });
      assert.equal(error.code, 50_005);
    });

    it('deletes the author’s own message; then it is unknown (10008)', async () => {
      const sent = await send(server.api, world.member, channel, { content: 'bye' });
      await api(server.api, 'DELETE', `/channels/${channel}/messages/${sent.id}`, {
        token: world.member.token,
        expect: 204,
      });
      const error = await fails(server.api, 'GET', `/channels/${channel}/messages/${sent.id}`, world.member, 404);
      assert.equal(error.code, 10_008);
    });

    it('refuses to delete another user’s message without MANAGE_MESSAGES (50013)', async () => {
      const sent = await send(server.api, world.owner, channel, { content: 'owner says' });
      const error = await fails(server.api, 'DELETE', `/channels/${channel}/messages/${sent.id}`, world.member, 403);
      assert.equal(error.code, 50_013);
    });

    it('lets the owner delete a member’s message', async () => {
      const sent = await send(server.api, world.member, channel, { content: 'moderate me' });
      await api(server.api, 'DELETE', `/channels/${channel}/messages/${sent.id}`, {
        token: world.owner.token,
        expect: 204,
      });
    });

    it('answers 10008 for a message id of another channel', async () => {
      const other = await textChannel(server.api, world, 'elsewhere');
      const sent = await send(server.api, world.member, other, { content: 'over here' });
      const error = await fails(server.api, 'GET', `/channels/${channel}/messages/${sent.id}`, world.member, 404);
      assert.equal(error.code, 10_008);
    });
  });

  describe('validation', () => {
    it('refuses an empty message with 50006', async () => {
      const error = await fails(server.api, 'POST', `/channels/${channel}/messages`, world.member, 400, {
        content: '',
      });
      assert.equal(error.code, 50_006);
      const blank = await fails(server.api, 'POST', `/channels/${channel}/messages`, world.member, 400, {});
      assert.equal(blank.code, 50_006);
    });

    it('refuses content over 2000 characters with 50035 naming content', async () => {
      const error = await fails(server.api, 'POST', `/channels/${channel}/messages`, world.member, 400, {
        content: 'x'.repeat(2001),
      });
      assert.equal(error.code, 50_035);
      assert.ok(error.errors && 'content' in error.errors);
    });

    it('refuses an edit that empties the message with 50006', async () => {
      const sent = await send(server.api, world.member, channel, { content: 'something' });
      const error = await fails(server.api, 'PATCH', `/channels/${channel}/messages/${sent.id}`, world.member, 400, {
        content: '',
      });
      assert.equal(error.code, 50_006);
    });
  });

  describe('access', () => {
    it('answers 404 10003 to a user who is not a member', async () => {
      const error = await fails(server.api, 'POST', `/channels/${channel}/messages`, world.outsider, 404, {
        content: 'hi',
      });
      assert.equal(error.code, 10_003);
    });

    it('answers 403 50001 to a member who cannot view the channel', async () => {
      const hidden = await textChannel(server.api, world, 'hidden');
      await memberOverwrite(server.api, world, hidden, world.member.id, 0n, Bits.VIEW_CHANNEL);
      const error = await fails(server.api, 'GET', `/channels/${hidden}/messages`, world.member, 403);
      assert.equal(error.code, 50_001);
    });

    it('refuses a member without SEND_MESSAGES with 50013, but still lets them read', async () => {
      const readOnly = await textChannel(server.api, world, 'announcements');
      await send(server.api, world.owner, readOnly, { content: 'read this' });
      await memberOverwrite(server.api, world, readOnly, world.member.id, 0n, Bits.SEND_MESSAGES);
      const error = await fails(server.api, 'POST', `/channels/${readOnly}/messages`, world.member, 403, {
        content: 'no',
      });
      assert.equal(error.code, 50_013);
      const listing = await api<ApiMessage[]>(server.api, 'GET', `/channels/${readOnly}/messages`, {
        token: world.member.token,
      });
      assert.equal(listing.length, 1);
    });

    it('lists nothing for a member without READ_MESSAGE_HISTORY', async () => {
      const noHistory = await textChannel(server.api, world, 'no-history');
      await send(server.api, world.owner, noHistory, { content: 'secret past' });
      await memberOverwrite(server.api, world, noHistory, world.member.id, 0n, Bits.READ_MESSAGE_HISTORY);
      const listing = await api<ApiMessage[]>(server.api, 'GET', `/channels/${noHistory}/messages`, {
        token: world.member.token,
      });
      assert.deepEqual(listing, []);
    });
  });

  describe('slowmode', () => {
    it('refuses a second message within rate_limit_per_user with 429, but not to the owner', async () => {
      const slow = await textChannel(server.api, world, 'slow');
      await api(server.api, 'PATCH', `/channels/${slow}`, {
        token: world.owner.token,
        body: { rate_limit_per_user: 30 },
      });
      await send(server.api, world.member, slow, { content: 'first' });
      const limited = await api<{ retry_after: number }>(server.api, 'POST', `/channels/${slow}/messages`, {
        token: world.member.token,
        body: { content: 'second' },
        expect: 429,
      });
      assert.ok(limited.retry_after > 0);
      await send(server.api, world.owner, slow, { content: 'owner 1' });
      await send(server.api, world.owner, slow, { content: 'owner 2' });
    });
  });

  describe('replies and mentions', () => {
    it('makes a reply type 19 with the referenced message and mentions its author', async () => {
      const original = await send(server.api, world.owner, channel, { content: 'question?' });
      const reply = await send(server.api, world.member, channel, {
        content: 'answer',
        message_reference: { message_id: original.id },
      });
      assert.equal(reply.type, 19);
      assert.equal(reply.message_reference?.message_id, original.id);
      assert.equal(reply.referenced_message?.id, original.id);
      assert.ok(reply.mentions.some((user) => user.id === world.owner.id));
      const listed = await api<ApiMessage[]>(server.api, 'GET', `/channels/${channel}/messages?limit=1`, {
        token: world.member.token,
      });
      assert.equal(listed[0]?.referenced_message?.content, 'question?');
    });

    it('answers 10008 for a reply to a missing message, unless fail_if_not_exists is false', async () => {
      const missing = { message_id: '123456789012345678', channel_id: channel };
      const error = await fails(server.api, 'POST', `/channels/${channel}/messages`, world.member, 404, {
        content: 'to nothing',
        message_reference: missing,
      });
      assert.equal(error.code, 10_008);
      const plain = await send(server.api, world.member, channel, {
        content: 'to nothing, fine',
        message_reference: { ...missing, fail_if_not_exists: false },
      });
      assert.equal(plain.type, 0);
      assert.equal(plain.message_reference, undefined);
    });

    it('parses user mentions and @everyone', async () => {
      const sent = await send(server.api, world.owner, channel, { content: `hi <@${world.member.id}> and @everyone` });
      assert.deepEqual(
        sent.mentions.map((user) => user.id),
        [world.member.id],
      );
      assert.equal(sent.mentions[0]?.username, world.member.username);
      assert.equal(sent.mention_everyone, true);
    });

    it('honours allowed_mentions', async () => {
      const sent = await send(server.api, world.owner, channel, {
        content: `quiet <@${world.member.id}> @everyone`,
        allowed_mentions: { parse: [] },
      });
      assert.deepEqual(sent.mentions, []);
      assert.equal(sent.mention_everyone, false);
    });
  });
});
