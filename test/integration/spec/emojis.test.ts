import assert from 'node:assert/strict';
import {
  EXPRESSION_INTENTS,
  api,
  connect,
  errorFields,
  fails,
  gifBytes,
  grant,
  guildReady,
  guildWithMember,
  member,
  pngDataUri,
  registerUser,
  startHarness,
  type GuildHarness,
  type TestGuild,
  type TestUser,
} from './specKit.js';
import { Permission } from '../../../src/domain/permissions.js';

interface ApiEmoji {
  id: string;
  name: string;
  roles: string[];
  animated: boolean;
  require_colons: boolean;
  managed: boolean;
  available: boolean;
  user?: { id: string };
}

describe('guild emojis', function () {
  this.timeout(30_000);
  let h: GuildHarness;
  let target: TestGuild;
  let user: TestUser;
  let guildPath: string;

  before(async () => {
    h = await startHarness();
    ({ target, user } = await guildWithMember(h, 'Emoji Guild'));
    guildPath = `/guilds/${target.guild.id}`;
  });

  after(async () => {
    await h.stop();
  });

  const create = (by: TestUser, body: unknown, expect = 201) =>
    api<ApiEmoji>(h.api, 'POST', `${guildPath}/emojis`, { token: by.token, body, expect });

  it('creates an emoji from a data URI, lists it, and tells GUILD_EMOJIS_UPDATE', async () => {
    const client = await connect(h.gatewayUrl, user, EXPRESSION_INTENTS);
    try {
      const emoji = await create(target.owner, { name: 'party_blob', image: pngDataUri() });
      assert.equal(emoji.name, 'party_blob');
      assert.equal(emoji.animated, false);
      assert.equal(emoji.require_colons, true);
      assert.equal(emoji.user?.id, target.owner.id);
      const update = await client.waitForDispatch<{ guild_id: string; emojis: ApiEmoji[] }>(
        'GUILD_EMOJIS_UPDATE',
        (d) => d.emojis.some((e) => e.id === emoji.id),
      );
      assert.equal(update.d.guild_id, target.guild.id);
      assert.equal(update.d.emojis.find((e) => e.id === emoji.id)?.user, undefined, 'gateway lists carry no creator');
      const listed = await api<ApiEmoji[]>(h.api, 'GET', `${guildPath}/emojis`, { token: user.token });
      assert.ok(listed.some((e) => e.id === emoji.id));
      const one = await api<ApiEmoji>(h.api, 'GET', `${guildPath}/emojis/${emoji.id}`, { token: user.token });
      assert.equal(one.name, 'party_blob');
      assert.equal(one.user, undefined, 'members without expression permissions do not see the creator');
      const guild = await api<{ emojis: ApiEmoji[] }>(h.api, 'GET', guildPath, { token: user.token });
      assert.ok(
        guild.emojis.some((e) => e.id === emoji.id),
        'the guild object lists its emojis',
      );
    } finally {
      await client.close();
    }
  });

  it('lists the guild’s emojis in the gateway guild (READY / GUILD_CREATE)', async () => {
    const emoji = await create(target.owner, { name: 'in_ready', image: pngDataUri() });
    const client = await connect(h.gatewayUrl, user, EXPRESSION_INTENTS);
    try {
      const guild = (await guildReady(client, target.guild.id)) as { emojis?: ApiEmoji[]; stickers?: unknown[] };
      assert.ok(guild.emojis?.some((e) => e.id === emoji.id));
      assert.ok(Array.isArray(guild.stickers));
    } finally {
      await client.close();
    }
  });

  it('keeps GUILD_EMOJIS_UPDATE from sessions without the GUILD_EXPRESSIONS intent', async () => {
    const without = await connect(h.gatewayUrl, user, 1);
    try {
      await create(target.owner, { name: 'quiet', image: pngDataUri() });
      // A later GUILDS event proves the earlier emoji event, had it been sent, would have arrived first.
      await api(h.api, 'PATCH', guildPath, { token: target.owner.token, body: { description: 'marker' } });
      await without.waitForDispatch<{ description: string }>('GUILD_UPDATE', (d) => d.description === 'marker');
      assert.deepEqual(without.dispatches('GUILD_EMOJIS_UPDATE'), []);
    } finally {
      await without.close();
    }
  });

  it('marks a GIF emoji animated', async () => {
    const emoji = await create(target.owner, {
      name: 'spinner',
      image: `data:image/gif;base64,${gifBytes().toString('base64')}`,
    });
    assert.equal(emoji.animated, true);
  });

  it('renames an emoji, restricts it to a role, and deletes it', async () => {
    const emoji = await create(target.owner, { name: 'temp', image: pngDataUri() });
    const role = await api<{ id: string }>(h.api, 'POST', `${guildPath}/roles`, {
      token: target.owner.token,
      body: { name: 'emoji-users' },
    });
    const renamed = await api<ApiEmoji>(h.api, 'PATCH', `${guildPath}/emojis/${emoji.id}`, {
      token: target.owner.token,
      body: { name: 'renamed', roles: [role.id] },
    });
    assert.equal(renamed.name, 'renamed');
    assert.deepEqual(renamed.roles, [role.id]);
    await api(h.api, 'DELETE', `${guildPath}/emojis/${emoji.id}`, { token: target.owner.token, expect: 204 });
    await fails(h.api, 'GET', `${guildPath}/emojis/${emoji.id}`, user, 404, 10_014);
  });

  describe('permissions', () => {
    it('refuses create, modify and delete without MANAGE_GUILD_EXPRESSIONS (403 50013)', async () => {
      const emoji = await create(target.owner, { name: 'guarded', image: pngDataUri() });
      await fails(h.api, 'POST', `${guildPath}/emojis`, user, 403, 50_013, { name: 'nope', image: pngDataUri() });
      await fails(h.api, 'PATCH', `${guildPath}/emojis/${emoji.id}`, user, 403, 50_013, { name: 'nope' });
      await fails(h.api, 'DELETE', `${guildPath}/emojis/${emoji.id}`, user, 403, 50_013);
    });

    it('lets a member holding MANAGE_GUILD_EXPRESSIONS manage every emoji', async () => {
      const manager = await member(h.api, target, 'manager');
      await grant(h.api, target, manager, Permission.MANAGE_GUILD_EXPRESSIONS, 'expressions');
      const owners = await create(target.owner, { name: 'owners', image: pngDataUri() });
      const mine = await create(manager, { name: 'managers', image: pngDataUri() });
      assert.equal(mine.user?.id, manager.id);
      await api(h.api, 'PATCH', `${guildPath}/emojis/${owners.id}`, { token: manager.token, body: { name: 'edited' } });
    });

    it('lets CREATE_GUILD_EXPRESSIONS edit its own emojis only', async () => {
      const creator = await member(h.api, target, 'creator');
      await grant(h.api, target, creator, Permission.CREATE_GUILD_EXPRESSIONS, 'creators');
      const own = await create(creator, { name: 'own', image: pngDataUri() });
      const other = await create(target.owner, { name: 'not_own', image: pngDataUri() });
      await api(h.api, 'PATCH', `${guildPath}/emojis/${own.id}`, { token: creator.token, body: { name: 'own2' } });
      await fails(h.api, 'PATCH', `${guildPath}/emojis/${other.id}`, creator, 403, 50_013, { name: 'theirs' });
      await fails(h.api, 'DELETE', `${guildPath}/emojis/${other.id}`, creator, 403, 50_013);
    });

    it('answers 401 without a token and 404 10004 to non-members', async () => {
      await fails(h.api, 'GET', `${guildPath}/emojis`, undefined, 401, 0);
      await fails(h.api, 'POST', `${guildPath}/emojis`, undefined, 401, 0, { image: pngDataUri() });
      const outsider = await registerUser(h.api, 'outsider');
      await fails(h.api, 'GET', `${guildPath}/emojis`, outsider, 404, 10_004);
      await fails(h.api, 'POST', `${guildPath}/emojis`, outsider, 404, 10_004, { name: 'x1', image: pngDataUri() });
    });
  });

  describe('validation (50035 naming the field)', () => {
    const invalid = async (body: unknown, field: string): Promise<void> => {
      const error = await fails(h.api, 'POST', `${guildPath}/emojis`, target.owner, 400, 50_035, body);
      assert.deepEqual(errorFields(error), [field], JSON.stringify(error));
    };

    it('requires the image', async () => {
      await invalid({ name: 'noimage' }, 'image');
    });

    it('refuses an image that is not a data URI of an image', async () => {
      await invalid({ name: 'bad', image: 'https://example.com/a.png' }, 'image');
      await invalid(
        { name: 'bad', image: `data:image/png;base64,${Buffer.from('not an image').toString('base64')}` },
        'image',
      );
    });

    it('refuses an image over 256 KiB', async () => {
      const big = Buffer.concat([Buffer.from(pngDataUri().split(',')[1] ?? '', 'base64'), Buffer.alloc(300 * 1024)]);
      await invalid({ name: 'huge', image: `data:image/png;base64,${big.toString('base64')}` }, 'image');
    });

    it('refuses a name outside 2..32 letters, digits and underscores', async () => {
      await invalid({ name: 'a', image: pngDataUri() }, 'name');
      await invalid({ name: 'has space', image: pngDataUri() }, 'name');
      await invalid({ name: 12, image: pngDataUri() }, 'name');
    });

    it('refuses roles that are not roles of the guild', async () => {
      await invalid({ name: 'rolebound', image: pngDataUri(), roles: ['123'] }, 'roles');
    });

    it('refuses a bad rename', async () => {
      const emoji = await create(target.owner, { name: 'stable', image: pngDataUri() });
      const error = await fails(h.api, 'PATCH', `${guildPath}/emojis/${emoji.id}`, target.owner, 400, 50_035, {
        name: 'x',
      });
      assert.deepEqual(errorFields(error), ['name']);
    });
  });
});
