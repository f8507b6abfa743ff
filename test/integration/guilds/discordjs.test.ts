import assert from 'node:assert/strict';
import {
  ChannelType,
  Client,
  Events,
  GatewayIntentBits,
  PermissionFlagsBits,
  type Guild,
  type GuildMember,
  type TextChannel,
} from 'discord.js';
import { api, registerUser, type TestUser } from '../../support/testServer.js';
import { createGuild, member, startHarness, type GuildHarness, type TestGuild } from './guildKit.js';

/** Resolves with the first `event` whose arguments satisfy `match`, failing after `timeoutMs`. */
function nextEvent<A extends unknown[]>(
  client: Client,
  event: string,
  match: (...args: A) => boolean,
  timeoutMs = 5_000,
): Promise<A> {
  return new Promise((resolve, reject) => {
    const listener = (...args: unknown[]): void => {
      if (!match(...(args as A))) return;
      clearTimeout(timer);
      client.off(event, listener);
      resolve(args as A);
    };
    const timer = setTimeout(() => {
      client.off(event, listener);
      reject(new Error(`no matching ${event} within ${timeoutMs} ms`));
    }, timeoutMs);
    client.on(event, listener);
  });
}

describe('guilds through discord.js', function () {
  this.timeout(30_000);
  let h: GuildHarness;
  let target: TestGuild;
  let person: TestUser;
  let client: Client;
  let guild: Guild;

  before(async () => {
    h = await startHarness();
    target = await createGuild(h.api, await registerUser(h.api, 'owner'), 'Discord.js Guild');
    person = await member(h.api, target, 'person');
    const app = await api<{ id: string }>(h.api, 'POST', '/applications', {
      token: target.owner.token,
      body: { name: 'Steward' },
      expect: 201,
    });
    const bot = await api<{ token: string }>(h.api, 'POST', `/applications/${app.id}/bot`, {
      token: target.owner.token,
    });
    await api(h.api, 'POST', `/oauth2/authorize?client_id=${app.id}&scope=bot`, {
      token: target.owner.token,
      body: { authorize: true, guild_id: target.guild.id, permissions: PermissionFlagsBits.Administrator.toString() },
    });
    client = new Client({
      intents: [
        GatewayIntentBits.Guilds,
        GatewayIntentBits.GuildMembers,
        GatewayIntentBits.GuildModeration,
        GatewayIntentBits.GuildInvites,
      ],
      rest: { api: `${h.node.url}/api` },
    });
    const ready = new Promise<void>((resolve) => {
      client.once(Events.ClientReady, () => {
        resolve();
      });
    });
    await client.login(bot.token);
    await ready;
    const cached = client.guilds.cache.get(target.guild.id) ?? (await client.guilds.fetch(target.guild.id));
    guild = cached;
  });

  after(async () => {
    await client.destroy();
    await h.stop();
  });

  it('sees the guild with its roles, channels and its own managed role', () => {
    assert.equal(guild.name, 'Discord.js Guild');
    assert.equal(guild.ownerId, target.owner.id);
    assert.ok(guild.channels.cache.has(target.textChannelId));
    assert.ok(guild.roles.everyone.permissions.has(PermissionFlagsBits.ViewChannel));
    assert.ok(guild.members.me?.permissions.has(PermissionFlagsBits.Administrator));
  });

  it('creates, edits and deletes a channel with overwrites', async () => {
    const created = nextEvent<[TextChannel]>(client, Events.ChannelCreate, (c) => c.name === 'made-by-bot');
    const channel = await guild.channels.create({ name: 'made-by-bot', type: ChannelType.GuildText, topic: 'bots' });
    await created;
    assert.equal(channel.topic, 'bots');
    const edited = await channel.edit({ name: 'renamed-by-bot', rateLimitPerUser: 3 });
    assert.equal(edited.name, 'renamed-by-bot');
    assert.equal(edited.rateLimitPerUser, 3);
    // Without GUILD_PRESENCES, GUILD_CREATE lists the bot alone (as Discord does): fetch the member first.
    await guild.members.fetch(person.id);
    await channel.permissionOverwrites.edit(person.id, { SendMessages: false });
    assert.equal(channel.permissionsFor(person.id)?.has(PermissionFlagsBits.SendMessages), false);
    const deleted = nextEvent<[TextChannel]>(client, Events.ChannelDelete, (c) => c.id === channel.id);
    await channel.delete();
    await deleted;
  });

  it('creates a role, gives it to a member, renames them and takes the role back', async () => {
    const role = await guild.roles.create({
      name: 'Helpers',
      colors: { primaryColor: 0x00ff00 },
      permissions: [PermissionFlagsBits.KickMembers],
    });
    assert.equal(role.colors.primaryColor, 0x00ff00);
    assert.equal(role.name, 'Helpers');
    assert.ok(role.permissions.has(PermissionFlagsBits.KickMembers));
    const fetched: GuildMember = await guild.members.fetch(person.id);
    await fetched.roles.add(role);
    const withRole = await guild.members.fetch({ user: person.id, force: true });
    assert.ok(withRole.roles.cache.has(role.id));
    const nicked = await withRole.setNickname('Helper');
    assert.equal(nicked.nickname, 'Helper');
    const cleared = await nicked.setNickname(null);
    assert.equal(cleared.nickname, null);
    await cleared.roles.remove(role);
    const edited = await role.edit({ name: 'Former helpers' });
    assert.equal(edited.name, 'Former helpers');
    await role.delete();
    assert.equal(guild.roles.cache.has(role.id), false);
  });

  it('lists members and edits the guild', async () => {
    const listed = await guild.members.list({ limit: 10 });
    assert.ok(listed.has(person.id) && listed.has(target.owner.id));
    const updated = nextEvent<[Guild, Guild]>(
      client,
      Events.GuildUpdate,
      (_old, next) => next.name === 'Renamed by bot',
    );
    await guild.edit({ name: 'Renamed by bot' });
    await updated;
  });

  it('creates, fetches and deletes invites', async () => {
    const channel = guild.channels.cache.get(target.textChannelId) as TextChannel;
    const invite = await channel.createInvite({ maxAge: 3600, maxUses: 5 });
    assert.equal(invite.maxAge, 3600);
    assert.equal(invite.maxUses, 5);
    const fetched = await client.fetchInvite(invite.code);
    assert.equal(fetched.guild?.id, guild.id);
    const all = await guild.invites.fetch();
    assert.ok(all.has(invite.code));
    await invite.delete();
    await assert.rejects(client.fetchInvite(invite.code));
  });

  it('bans, unbans and kicks', async () => {
    const victim = await member(h.api, target, 'victim');
    const removed = nextEvent<[GuildMember]>(client, Events.GuildMemberRemove, (m) => m.id === victim.id);
    await guild.members.ban(victim.id, { reason: 'testing' });
    await removed;
    const ban = await guild.bans.fetch(victim.id);
    assert.equal(ban.reason, 'testing');
    await guild.members.unban(victim.id);
    const kicked = await member(h.api, target, 'kicked');
    await guild.members.kick(kicked.id);
    await assert.rejects(guild.members.fetch({ user: kicked.id, force: true }));
  });
});
