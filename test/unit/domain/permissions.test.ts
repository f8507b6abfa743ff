import assert from 'node:assert/strict';
import {
  ALL_PERMISSIONS,
  channelPermissions,
  hasAll,
  OverwriteType,
  Permission,
  type PermissionGuild,
} from '../../../src/domain/permissions.js';

const guild: PermissionGuild = {
  id: '100',
  ownerId: '1',
  rolePermissions: new Map([
    ['100', Permission.VIEW_CHANNEL | Permission.SEND_MESSAGES | Permission.EMBED_LINKS],
    ['200', Permission.MANAGE_MESSAGES],
    ['300', Permission.ADMINISTRATOR],
  ]),
};

const deny = (id: string, type: number, bits: bigint) => ({ id, type, allow: 0n, deny: bits });
const allow = (id: string, type: number, bits: bigint) => ({ id, type, allow: bits, deny: 0n });

describe('channelPermissions', () => {
  it('gives the owner everything, whatever the overwrites say', () => {
    assert.equal(
      channelPermissions(guild, '1', [], [deny('1', OverwriteType.member, ALL_PERMISSIONS)]),
      ALL_PERMISSIONS,
    );
  });

  it('gives ADMINISTRATOR everything and ignores overwrites', () => {
    const result = channelPermissions(guild, '2', ['300'], [deny('100', OverwriteType.role, Permission.VIEW_CHANNEL)]);
    assert.equal(result, ALL_PERMISSIONS);
  });

  it('unions @everyone with the member roles', () => {
    const result = channelPermissions(guild, '2', ['200'], []);
    assert.ok(hasAll(result, Permission.SEND_MESSAGES | Permission.MANAGE_MESSAGES));
  });

  it('applies @everyone, then role overwrites together, then the member overwrite', () => {
    const overwrites = [
      deny('100', OverwriteType.role, Permission.SEND_MESSAGES),
      allow('200', OverwriteType.role, Permission.SEND_MESSAGES),
      deny('2', OverwriteType.member, Permission.SEND_MESSAGES),
    ];
    assert.equal(hasAll(channelPermissions(guild, '3', ['200'], overwrites), Permission.SEND_MESSAGES), true);
    assert.equal(hasAll(channelPermissions(guild, '2', ['200'], overwrites), Permission.SEND_MESSAGES), false);
  });

  it('lets a role allow win over another role deny (union, positions do not matter)', () => {
    const overwrites = [
      deny('200', OverwriteType.role, Permission.EMBED_LINKS),
      allow('201', OverwriteType.role, Permission.EMBED_LINKS),
    ];
    assert.ok(hasAll(channelPermissions(guild, '2', ['200', '201'], overwrites), Permission.EMBED_LINKS));
  });

  it('removes everything when VIEW_CHANNEL is denied', () => {
    assert.equal(channelPermissions(guild, '2', [], [deny('100', OverwriteType.role, Permission.VIEW_CHANNEL)]), 0n);
  });

  it('removes embed, attach, TTS and mention-everyone when SEND_MESSAGES is missing', () => {
    const result = channelPermissions(guild, '2', [], [deny('100', OverwriteType.role, Permission.SEND_MESSAGES)]);
    assert.equal(hasAll(result, Permission.EMBED_LINKS), false);
    assert.equal(hasAll(result, Permission.VIEW_CHANNEL), true);
  });
});
