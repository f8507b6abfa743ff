import assert from 'node:assert/strict';
import { DEFAULT_EVERYONE_PERMISSIONS, Permission } from '../../src/domain/permissions.js';
import { connect, grant, guildReady, member } from '../integration/guilds/guildKit.js';
import type { GatewayClient } from '../support/GatewayClient.js';
import { api, startTestServer, type TestServer, type TestUser } from '../support/testServer.js';
import { lockedGuild, refused, type LockedGuild } from './accessRulesKit.js';

/** The mention fields of a message (as returned, fetched or dispatched). */
interface Mentions {
  id: string;
  content: string;
  mentions: { id: string }[];
  mention_roles: string[];
  mention_everyone: boolean;
}

const mentionFields = (message: Mentions) => ({
  content: message.content,
  mentions: message.mentions.map((user) => user.id).sort(),
  mention_roles: [...message.mention_roles].sort(),
  mention_everyone: message.mention_everyone,
});

describe('security: mentions ping only as the author may (MENTION_EVERYONE, mentionable roles)', () => {
  let server: TestServer;
  let base: string;
  let world: LockedGuild;
  let quiet: string;
  let loud: string;
  let watcher: GatewayClient;

  before(async () => {
    server = await startTestServer();
    base = server.api;
    // Everyone may write, but not mention everyone (Discord's default set gives it; this guild does not).
    world = await lockedGuild(base, DEFAULT_EVERYONE_PERMISSIONS & ~Permission.MENTION_EVERYONE, 'Mentions');
    const role = (name: string, mentionable: boolean) =>
      api<{ id: string }>(base, 'POST', `/guilds/${world.guildId}/roles`, {
        token: world.owner.token,
        body: { name, mentionable },
      });
    quiet = (await role('quiet', false)).id;
    loud = (await role('loud', true)).id;
    watcher = await connect(server.gatewayUrl, world.owner);
    await guildReady(watcher, world.guildId);
  });

  after(async () => {
    await watcher.close();
    await server.stop();
  });

  /** Sends as `user`, then checks the reply, the stored message and MESSAGE_CREATE carry the same mentions. */
  async function sendChecked(user: TestUser, body: Record<string, unknown>, channelId = world.channelId) {
    const sent = await api<Mentions>(base, 'POST', `/channels/${channelId}/messages`, { token: user.token, body });
    const stored = await api<Mentions>(base, 'GET', `/channels/${channelId}/messages/${sent.id}`, {
      token: world.owner.token,
    });
    const event = await watcher.waitForDispatch<Mentions>('MESSAGE_CREATE', (d) => d.id === sent.id);
    assert.deepEqual(mentionFields(stored), mentionFields(sent), 'stored as returned');
    assert.deepEqual(mentionFields(event.d), mentionFields(sent), 'dispatched as returned');
    return mentionFields(sent);
  }

  const everything = () => `<@&${quiet}> <@&${loud}> <@&123456789012345678> @everyone @here hi`;

  it('keeps the text but pings only mentionable roles, and not @everyone, for a member without MENTION_EVERYONE', async () => {
    const sent = await sendChecked(world.plain, { content: everything() });
    assert.equal(sent.content, everything());
    assert.deepEqual(sent.mention_roles, [loud]);
    assert.equal(sent.mention_everyone, false);
  });

  it('pings every existing role and @everyone for an author holding MENTION_EVERYONE', async () => {
    const sent = await sendChecked(world.owner, { content: everything() });
    assert.deepEqual(sent.mention_roles, [quiet, loud].sort(), 'an unknown role id never pings');
    assert.equal(sent.mention_everyone, true);
  });

  it('follows channel overwrites: denied there, no ping; allowed there, pings', async () => {
    const mentioner = await member(base, world.target, 'mentioner');
    const roleId = await grant(base, world.target, mentioner, Permission.MENTION_EVERYONE, 'mentioners');
    const overwrite = (allow: bigint, deny: bigint) =>
      api(base, 'PUT', `/channels/${world.channelId}/permissions/${mentioner.id}`, {
        token: world.owner.token,
        body: { id: mentioner.id, type: 1, allow: allow.toString(), deny: deny.toString() },
        expect: 204,
      });
    await overwrite(0n, Permission.MENTION_EVERYONE);
    const denied = await sendChecked(mentioner, { content: everything() });
    assert.deepEqual([denied.mention_roles, denied.mention_everyone], [[loud], false]);
    await api(base, 'DELETE', `/guilds/${world.guildId}/members/${mentioner.id}/roles/${roleId}`, {
      token: world.owner.token,
      expect: 204,
    });
    await overwrite(Permission.MENTION_EVERYONE, 0n);
    const allowed = await sendChecked(mentioner, { content: everything() });
    assert.deepEqual([allowed.mention_roles, allowed.mention_everyone], [[quiet, loud].sort(), true]);
  });

  it('narrows with allowed_mentions, which never grants what the permission does not', async () => {
    const none = await sendChecked(world.owner, { content: everything(), allowed_mentions: { parse: [] } });
    assert.deepEqual([none.mention_roles, none.mention_everyone], [[], false]);
    const listed = await sendChecked(world.owner, { content: everything(), allowed_mentions: { roles: [quiet] } });
    assert.deepEqual([listed.mention_roles, listed.mention_everyone], [[quiet], false]);
    const asked = await sendChecked(world.plain, {
      content: everything(),
      allowed_mentions: { parse: ['everyone'], roles: [quiet, loud] },
    });
    assert.deepEqual([asked.mention_roles, asked.mention_everyone], [[loud], false]);
  });

  it('refuses allowed_mentions Discord refuses: parse and a list of the same kind (50035)', async () => {
    const error = await refused(base, 'POST', `/channels/${world.channelId}/messages`, world.owner.token, 400, 50_035, {
      content: 'x',
      allowed_mentions: { parse: ['roles'], roles: [quiet] },
    });
    assert.ok('allowed_mentions' in (error['errors'] as object), JSON.stringify(error));
  });

  it('applies the same rule when a message is edited', async () => {
    const sent = await api<Mentions>(base, 'POST', `/channels/${world.channelId}/messages`, {
      token: world.plain.token,
      body: { content: 'plain' },
    });
    const edited = await api<Mentions>(base, 'PATCH', `/channels/${world.channelId}/messages/${sent.id}`, {
      token: world.plain.token,
      body: { content: everything() },
    });
    assert.deepEqual([edited.mention_roles, edited.mention_everyone], [[loud], false]);
  });

  it('lets a webhook mention every role and @everyone unless allowed_mentions narrows it', async () => {
    const hook = await api<{ id: string; token: string }>(base, 'POST', `/channels/${world.channelId}/webhooks`, {
      token: world.owner.token,
      body: { name: 'Announcer' },
    });
    const execute = (body: Record<string, unknown>) =>
      api<Mentions>(base, 'POST', `/webhooks/${hook.id}/${hook.token}?wait=true`, { body });
    const all = await execute({ content: everything() });
    assert.deepEqual([[...all.mention_roles].sort(), all.mention_everyone], [[quiet, loud].sort(), true]);
    const narrowed = await execute({ content: everything(), allowed_mentions: { parse: [] } });
    assert.deepEqual([narrowed.mention_roles, narrowed.mention_everyone], [[], false]);
  });
});
