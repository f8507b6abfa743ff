import assert from 'node:assert/strict';
import {
  allChannelsId,
  mayUseGuildCommand,
  usableInBotDm,
  type GuildCommandUser,
} from '../../../src/domain/commandAccess.js';
import { commandIndexJson, commandSearchJson } from '../../../src/domain/commandIndex.js';
import { ALL_PERMISSIONS, Permission } from '../../../src/domain/permissions.js';

const GUILD = '1000';
const member: GuildCommandUser = {
  guildId: GUILD,
  channelId: '2000',
  userId: '3000',
  roleIds: ['4000', '4001'],
  permissions: Permission.USE_APPLICATION_COMMANDS | Permission.VIEW_CHANNEL,
};
const admin: GuildCommandUser = { ...member, userId: '3001', permissions: ALL_PERMISSIONS };
const open = { default_member_permissions: null };
const banOnly = { default_member_permissions: Permission.BAN_MEMBERS.toString() };

describe('command permissions v2', () => {
  it('lets everyone use a command without default_member_permissions, and nobody without USE_APPLICATION_COMMANDS', () => {
    assert.equal(mayUseGuildCommand(open, {}, member), true);
    assert.equal(mayUseGuildCommand(open, {}, { ...member, permissions: Permission.VIEW_CHANNEL }), false);
  });

  it('requires every default_member_permissions bit, which administrators hold; "0" is for administrators only', () => {
    assert.equal(mayUseGuildCommand(banOnly, {}, member), false);
    assert.equal(
      mayUseGuildCommand(banOnly, {}, { ...member, permissions: member.permissions | Permission.BAN_MEMBERS }),
      true,
    );
    assert.equal(mayUseGuildCommand(banOnly, {}, admin), true);
    assert.equal(mayUseGuildCommand({ default_member_permissions: '0' }, {}, member), false);
    assert.equal(mayUseGuildCommand({ default_member_permissions: '0' }, {}, admin), true);
  });

  it('lets a user override win over role overrides, and any allowing role over denying ones', () => {
    const roles = [
      { id: '4000', type: 1, permission: false },
      { id: '4001', type: 1, permission: true },
    ];
    assert.equal(mayUseGuildCommand(banOnly, { command: roles }, member), true);
    const denied = [...roles, { id: member.userId, type: 2, permission: false }];
    assert.equal(mayUseGuildCommand(open, { command: denied }, member), false);
  });

  it('falls back to @everyone, then to the application-wide overrides', () => {
    const everyone = [{ id: GUILD, type: 1, permission: false }];
    assert.equal(mayUseGuildCommand(open, { command: everyone }, member), false);
    assert.equal(mayUseGuildCommand(open, { application: everyone }, member), false);
    const userAllowed = [{ id: member.userId, type: 2, permission: true }];
    assert.equal(mayUseGuildCommand(open, { command: userAllowed, application: everyone }, member), true);
  });

  it('denies in a channel closed by the command or, failing that, by the application; "all channels" is guild id - 1', () => {
    assert.equal(allChannelsId(GUILD), '999');
    const closedHere = [{ id: member.channelId, type: 3, permission: false }];
    assert.equal(mayUseGuildCommand(open, { application: closedHere }, member), false);
    const closedEverywhere = [{ id: '999', type: 3, permission: false }];
    assert.equal(mayUseGuildCommand(open, { command: closedEverywhere }, member), false);
    const reopened = [{ id: member.channelId, type: 3, permission: true }];
    assert.equal(mayUseGuildCommand(open, { command: reopened, application: closedEverywhere }, member), true);
  });

  it('keeps age-restricted commands to age-restricted channels (the guild at large lists them)', () => {
    const nsfw = { ...open, nsfw: true };
    assert.equal(mayUseGuildCommand(nsfw, {}, { ...member, ageRestricted: false }), false);
    assert.equal(mayUseGuildCommand(nsfw, {}, { ...member, ageRestricted: true }), true);
    assert.equal(mayUseGuildCommand(nsfw, {}, member), true);
  });

  it('keeps commands whose contexts exclude guilds out of guilds, and guild commands out of DMs', () => {
    assert.equal(mayUseGuildCommand({ ...open, contexts: [1, 2] }, {}, admin), false);
    assert.equal(usableInBotDm({ contexts: [0, 1] }), true);
    assert.equal(usableInBotDm({ contexts: [0] }), false);
    assert.equal(usableInBotDm({ dm_permission: false }), false);
    assert.equal(usableInBotDm({ contexts: null, dm_permission: true }), true);
    assert.equal(usableInBotDm({ guild_id: GUILD }), false);
    assert.equal(usableInBotDm({ nsfw: true }), false);
  });
});

describe('command index', () => {
  const application = { id: '10', name: 'App', description: '', icon: null, flags: 0, bot: { id: '11', bot: true } };
  const commands = [
    { id: '20', application_id: '10', name: 'ping', type: 1, version: '25' },
    { id: '21', application_id: '10', name: 'Profile', type: 2, version: '30' },
  ];

  it('lists applications with commands only, with their bot, and the newest version', () => {
    const index = commandIndexJson([
      { application, commands },
      { application: { ...application, id: '12' }, commands: [] },
    ]);
    assert.deepEqual(
      index.applications.map((app) => [app['id'], app['bot_id']]),
      [['10', '11']],
    );
    assert.equal(index.version, '30');
    assert.equal(commandIndexJson([]).version, '0');
  });

  it('searches by type and name prefix, listing applications only when asked', () => {
    const index = commandIndexJson([{ application, commands }]);
    const found = commandSearchJson(index, { type: 2, query: 'pro', limit: 5, includeApplications: false });
    assert.deepEqual(found['application_commands'], [commands[1]]);
    assert.deepEqual(found['applications'], []);
  });
});
