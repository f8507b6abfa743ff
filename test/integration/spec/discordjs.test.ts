import assert from 'node:assert/strict';
import {
  Client,
  Events,
  GatewayIntentBits,
  PermissionFlagsBits,
  type Guild,
  type GuildEmoji,
  type Sticker,
} from 'discord.js';
import {
  api,
  createGuild,
  gifBytes,
  pngBytes,
  registerUser,
  startHarness,
  type GuildHarness,
  type TestGuild,
} from './specKit.js';

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

describe('emojis, stickers and templates through discord.js', function () {
  this.timeout(30_000);
  let h: GuildHarness;
  let target: TestGuild;
  let client: Client;
  let guild: Guild;

  before(async () => {
    h = await startHarness();
    target = await createGuild(h.api, await registerUser(h.api, 'owner'), 'Expressive Guild');
    const app = await api<{ id: string }>(h.api, 'POST', '/applications', {
      token: target.owner.token,
      body: { name: 'Artist' },
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
      intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildExpressions],
      rest: { api: `${h.node.url}/api` },
    });
    const ready = new Promise<void>((resolve) => {
      client.once(Events.ClientReady, () => {
        resolve();
      });
    });
    await client.login(bot.token);
    await ready;
    guild = client.guilds.cache.get(target.guild.id) ?? (await client.guilds.fetch(target.guild.id));
  });

  after(async () => {
    await client.destroy();
    await h.stop();
  });

  it('creates an emoji from a Buffer, sees GUILD_EMOJIS_UPDATE, fetches, edits and deletes it', async () => {
    const created = nextEvent<[GuildEmoji]>(client, Events.GuildEmojiCreate, (e) => e.name === 'djs_blob');
    const emoji = await guild.emojis.create({ attachment: pngBytes(), name: 'djs_blob' });
    assert.equal(emoji.name, 'djs_blob');
    assert.equal(emoji.animated, false);
    await created;
    const fetched = await guild.emojis.fetch(emoji.id, { force: true });
    assert.equal(fetched.name, 'djs_blob');
    const edited = await emoji.edit({ name: 'djs_renamed' });
    assert.equal(edited.name, 'djs_renamed');
    const deleted = nextEvent<[GuildEmoji]>(client, Events.GuildEmojiDelete, (e) => e.id === emoji.id);
    await emoji.delete();
    await deleted;
    const all = await guild.emojis.fetch();
    assert.equal(all.has(emoji.id), false);
  });

  it('creates an animated emoji from a GIF data URI', async () => {
    const emoji = await guild.emojis.create({
      attachment: `data:image/gif;base64,${gifBytes().toString('base64')}`,
      name: 'djs_spin',
    });
    assert.equal(emoji.animated, true);
  });

  it('creates a sticker with a file upload, fetches it by id, edits and deletes it', async () => {
    const created = nextEvent<[Sticker]>(client, Events.GuildStickerCreate, (s) => s.name === 'djs_wave');
    const sticker = await guild.stickers.create({ file: pngBytes(), name: 'djs_wave', tags: 'wave' });
    assert.equal(sticker.name, 'djs_wave');
    assert.equal(sticker.guildId, guild.id);
    await created;
    const byId = await client.fetchSticker(sticker.id);
    assert.equal(byId.name, 'djs_wave');
    const edited = await sticker.edit({ name: 'djs_waved', tags: 'wave' });
    assert.equal(edited.name, 'djs_waved');
    await sticker.delete();
    const all = await guild.stickers.fetch();
    assert.equal(all.has(sticker.id), false);
    assert.equal((await client.fetchStickerPacks()).size, 0);
  });

  it('creates a template, syncs it, and builds a guild from it', async () => {
    const template = await guild.createTemplate('Bot Template', 'made by a bot');
    assert.equal(template.name, 'Bot Template');
    assert.equal(template.unSynced, false);
    const fetched = await client.fetchGuildTemplate(template.code);
    assert.equal(fetched.guildId, guild.id);
    const synced = await template.sync();
    assert.equal(synced.code, template.code);
    const copier = await registerUser(h.api, 'copier');
    const copy = await api<{ id: string; name: string }>(h.api, 'POST', `/guilds/templates/${template.code}`, {
      token: copier.token,
      body: { name: 'From Bot Template' },
      expect: 201,
    });
    assert.equal(copy.name, 'From Bot Template');
    await template.delete();
    await assert.rejects(client.fetchGuildTemplate(template.code), /Unknown Template/);
  });
});
