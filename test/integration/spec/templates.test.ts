import assert from 'node:assert/strict';
import { Permission } from '../../../src/domain/permissions.js';
import {
  api,
  errorFields,
  fails,
  grant,
  guildWithMember,
  member,
  registerUser,
  startHarness,
  type GuildHarness,
  type TestGuild,
  type TestUser,
} from './specKit.js';

interface TemplateRole {
  id: number;
  name: string;
  permissions: string;
}
interface TemplateChannel {
  id: number;
  name: string;
  type: number;
  parent_id: number | null;
  permission_overwrites: { id: number; type: number; allow: string; deny: string }[];
}
interface ApiTemplate {
  code: string;
  name: string;
  description: string | null;
  usage_count: number;
  creator_id: string;
  creator: { id: string };
  source_guild_id: string;
  is_dirty: boolean;
  updated_at: string;
  serialized_source_guild: {
    name: string;
    roles: TemplateRole[];
    channels: TemplateChannel[];
    system_channel_id: number | null;
  };
}
interface ApiGuild {
  id: string;
  name: string;
  owner_id: string;
  system_channel_id: string | null;
  roles: { id: string; name: string; permissions: string }[];
}
interface ApiChannel {
  id: string;
  name: string;
  type: number;
  parent_id: string | null;
  permission_overwrites: { id: string; type: number; allow: string; deny: string }[];
}

describe('guild templates', function () {
  this.timeout(30_000);
  let h: GuildHarness;
  let target: TestGuild;
  let user: TestUser;
  let guildPath: string;
  let template: ApiTemplate;
  let roleId: string;
  let secretChannelId: string;

  before(async () => {
    h = await startHarness();
    ({ target, user } = await guildWithMember(h, 'Template Source'));
    guildPath = `/guilds/${target.guild.id}`;
    const role = await api<{ id: string }>(h.api, 'POST', `${guildPath}/roles`, {
      token: target.owner.token,
      body: { name: 'Moderators', permissions: Permission.KICK_MEMBERS.toString() },
    });
    roleId = role.id;
    // A private channel: hidden from @everyone, visible to Moderators, and a member overwrite templates drop.
    const secret = await api<{ id: string }>(h.api, 'POST', `${guildPath}/channels`, {
      token: target.owner.token,
      body: {
        name: 'mods-only',
        permission_overwrites: [
          { id: target.guild.id, type: 0, allow: '0', deny: Permission.VIEW_CHANNEL.toString() },
          { id: roleId, type: 0, allow: Permission.VIEW_CHANNEL.toString(), deny: '0' },
          { id: user.id, type: 1, allow: Permission.VIEW_CHANNEL.toString(), deny: '0' },
        ],
      },
      expect: 201,
    });
    secretChannelId = secret.id;
    template = await api<ApiTemplate>(h.api, 'POST', `${guildPath}/templates`, {
      token: target.owner.token,
      body: { name: 'Community', description: 'A starter kit' },
    });
  });

  after(async () => {
    await h.stop();
  });

  it('snapshots roles (0 = @everyone), channels and role overwrites, without member overwrites', () => {
    assert.match(template.code, /^[A-Za-z0-9]{12}$/);
    assert.equal(template.name, 'Community');
    assert.equal(template.description, 'A starter kit');
    assert.equal(template.usage_count, 0);
    assert.equal(template.creator_id, target.owner.id);
    assert.equal(template.source_guild_id, target.guild.id);
    assert.equal(template.is_dirty, false);
    const snapshot = template.serialized_source_guild;
    assert.equal(snapshot.name, 'Template Source');
    assert.equal(snapshot.roles[0]?.name, '@everyone');
    const moderators = snapshot.roles.find((r) => r.name === 'Moderators');
    assert.ok(moderators);
    const secret = snapshot.channels.find((c) => c.name === 'mods-only');
    assert.ok(secret);
    assert.deepEqual(
      secret.permission_overwrites.map((o) => o.id).sort(),
      [0, moderators.id].sort(),
      'role overwrites only, by template role id',
    );
    const general = snapshot.channels.find((c) => c.name === 'general');
    assert.ok(
      general?.parent_id !== null && snapshot.channels.some((c) => c.id === general?.parent_id && c.type === 4),
    );
    assert.equal(snapshot.system_channel_id, general?.id);
  });

  it('lists the guild template to MANAGE_GUILD holders only, and refuses a second one (400 30031)', async () => {
    await fails(h.api, 'GET', `${guildPath}/templates`, user, 403, 50_013);
    const listed = await api<ApiTemplate[]>(h.api, 'GET', `${guildPath}/templates`, { token: target.owner.token });
    assert.deepEqual(
      listed.map((t) => t.code),
      [template.code],
    );
    await fails(h.api, 'POST', `${guildPath}/templates`, target.owner, 400, 30_031, { name: 'Second' });
  });

  it('lets any signed-in user read a template by code; an unknown code is 404 10057', async () => {
    const outsider = await registerUser(h.api, 'outsider');
    const read = await api<ApiTemplate>(h.api, 'GET', `/guilds/templates/${template.code}`, { token: outsider.token });
    assert.equal(read.code, template.code);
    await fails(h.api, 'GET', '/guilds/templates/NoSuchCode12', outsider, 404, 10_057);
    await fails(h.api, 'GET', '/guilds/templates/bad:code', outsider, 404, 10_057);
    await fails(h.api, 'GET', `/guilds/templates/${template.code}`, undefined, 401, 0);
  });

  it('keeps template codes out of the invite lists and off /invites/{code}', async () => {
    const invites = await api<{ code: string }[]>(h.api, 'GET', `${guildPath}/invites`, { token: target.owner.token });
    assert.ok(invites.every((i) => !i.code.includes(template.code)));
    await fails(h.api, 'GET', `/invites/${template.code}`, user, 404, 10_006);
    await fails(h.api, 'GET', `/invites/template:${template.code}`, user, 404, 10_006);
  });

  it('creates a guild from the template, mapping roles, channels and overwrites, and counts the use', async () => {
    const creator = await registerUser(h.api, 'copier');
    const guild = await api<ApiGuild>(h.api, 'POST', `/guilds/templates/${template.code}`, {
      token: creator.token,
      body: { name: 'Copied Guild' },
      expect: 201,
    });
    assert.equal(guild.name, 'Copied Guild');
    assert.equal(guild.owner_id, creator.id);
    const everyone = guild.roles.find((r) => r.id === guild.id);
    assert.equal(everyone?.name, '@everyone');
    const moderators = guild.roles.find((r) => r.name === 'Moderators');
    assert.ok(moderators);
    assert.notEqual(moderators.id, roleId);
    assert.equal(moderators.permissions, Permission.KICK_MEMBERS.toString());
    const channels = await api<ApiChannel[]>(h.api, 'GET', `/guilds/${guild.id}/channels`, { token: creator.token });
    const secret = channels.find((c) => c.name === 'mods-only');
    assert.ok(secret);
    assert.notEqual(secret.id, secretChannelId);
    assert.deepEqual(secret.permission_overwrites.map((o) => o.id).sort(), [guild.id, moderators.id].sort());
    const general = channels.find((c) => c.name === 'general');
    assert.equal(guild.system_channel_id, general?.id);
    assert.equal(channels.find((c) => c.id === general?.parent_id)?.type, 4);
    const source = await api<ApiTemplate>(h.api, 'GET', `/guilds/templates/${template.code}`, { token: creator.token });
    assert.equal(source.usage_count, 1);
  });

  it('refuses to create a guild without the CREATE_GUILDS right (403 50013) or without a name (50035)', async () => {
    const rightless = await h.userWithRights('rightless', 0n);
    await fails(h.api, 'POST', `/guilds/templates/${template.code}`, rightless, 403, 50_013, { name: 'Nope' });
    const error = await fails(h.api, 'POST', `/guilds/templates/${template.code}`, user, 400, 50_035, {});
    assert.deepEqual(errorFields(error), ['name']);
    await fails(h.api, 'POST', '/guilds/templates/NoSuchCode12', user, 404, 10_057, { name: 'Ghost' });
  });

  it('reports drift with is_dirty and syncs it away with PUT', async () => {
    await api(h.api, 'POST', `${guildPath}/channels`, {
      token: target.owner.token,
      body: { name: 'added-later' },
      expect: 201,
    });
    const [dirty] = await api<ApiTemplate[]>(h.api, 'GET', `${guildPath}/templates`, { token: target.owner.token });
    assert.equal(dirty?.is_dirty, true);
    const synced = await api<ApiTemplate>(h.api, 'PUT', `${guildPath}/templates/${template.code}`, {
      token: target.owner.token,
      expect: 200,
    });
    assert.equal(synced.is_dirty, false);
    assert.ok(synced.serialized_source_guild.channels.some((c) => c.name === 'added-later'));
  });

  it('edits the name and description with PATCH', async () => {
    const edited = await api<ApiTemplate>(h.api, 'PATCH', `${guildPath}/templates/${template.code}`, {
      token: target.owner.token,
      body: { name: 'Renamed', description: 'Updated' },
    });
    assert.equal(edited.name, 'Renamed');
    assert.equal(edited.description, 'Updated');
  });

  describe('permissions and validation', () => {
    it('refuses create, sync, modify and delete without MANAGE_GUILD (403 50013)', async () => {
      const path = `${guildPath}/templates/${template.code}`;
      await fails(h.api, 'POST', `${guildPath}/templates`, user, 403, 50_013, { name: 'Mine' });
      await fails(h.api, 'PUT', path, user, 403, 50_013);
      await fails(h.api, 'PATCH', path, user, 403, 50_013, { name: 'Mine' });
      await fails(h.api, 'DELETE', path, user, 403, 50_013);
    });

    it('lets a member holding MANAGE_GUILD sync the template', async () => {
      const manager = await member(h.api, target, 'manager');
      await grant(h.api, target, manager, Permission.MANAGE_GUILD, 'managers');
      await api(h.api, 'PUT', `${guildPath}/templates/${template.code}`, { token: manager.token, expect: 200 });
    });

    it('answers 401 without a token and 404 10004 to non-members', async () => {
      await fails(h.api, 'POST', `${guildPath}/templates`, undefined, 401, 0, { name: 'Anon' });
      const outsider = await registerUser(h.api, 'stranger');
      await fails(h.api, 'GET', `${guildPath}/templates`, outsider, 404, 10_004);
    });

    it('names the bad field: name required and at most 100, description at most 120', async () => {
      const path = `${guildPath}/templates/${template.code}`;
      for (const [body, field] of [
        [{ description: 'no name' }, 'name'],
        [{ name: 'n'.repeat(101) }, 'name'],
        [{ name: 'ok', description: 'd'.repeat(121) }, 'description'],
        [{ name: 7 }, 'name'],
      ] as const) {
        const error = await fails(h.api, 'PATCH', path, target.owner, 400, 50_035, body);
        assert.deepEqual(errorFields(error), [field], JSON.stringify(body));
      }
    });

    it('ignores template and emoji records smuggled into PATCH /guilds/{id}', async () => {
      await api(h.api, 'PATCH', guildPath, {
        token: target.owner.token,
        body: { description: 'safe', template: null, emojis: [{ id: '1', name: 'fake' }] },
      });
      const [still] = await api<ApiTemplate[]>(h.api, 'GET', `${guildPath}/templates`, { token: target.owner.token });
      assert.equal(still?.code, template.code);
      const guild = await api<{ emojis: unknown[] }>(h.api, 'GET', guildPath, { token: target.owner.token });
      assert.deepEqual(guild.emojis, []);
    });
  });

  // A suite of its own: mocha runs a suite's tests before its nested suites, and this one must come last.
  describe('deletion', () => {
    it('deletes the template, after which its code no longer resolves', async () => {
      const deleted = await api<ApiTemplate>(h.api, 'DELETE', `${guildPath}/templates/${template.code}`, {
        token: target.owner.token,
        expect: 200,
      });
      assert.equal(deleted.code, template.code);
      await fails(h.api, 'GET', `/guilds/templates/${template.code}`, user, 404, 10_057);
      assert.deepEqual(await api(h.api, 'GET', `${guildPath}/templates`, { token: target.owner.token }), []);
    });
  });
});
