import assert from 'node:assert/strict';
import {
  checkCommand,
  checkLimits,
  checkUniqueNames,
  commandObject,
  fieldsOf,
} from '../../../actors/user/applicationCommands.js';
import { BadRequestError, ValidationError } from '../../../src/domain/errors.js';

const key = { id: '10', applicationId: '20', guildId: null, version: '30' };

describe('application command rules', () => {
  it('accepts lowercase CHAT_INPUT names in any script, with - and _', () => {
    for (const name of ['ping', 'roll-dice', 'set_nick', 'привет', 'número2']) {
      checkCommand({ name, description: 'x' });
    }
  });

  it('refuses uppercase or spaced CHAT_INPUT names, naming the field of a bulk item', () => {
    assert.throws(
      () => {
        checkCommand({ name: 'Ping', description: 'x' }, '3.');
      },
      (error: unknown) => error instanceof ValidationError && '3' in error.fieldErrors,
    );
    assert.throws(() => {
      checkCommand({ name: 'a b', description: 'x' });
    }, ValidationError);
  });

  it('requires a description on CHAT_INPUT commands and refuses one on context menus', () => {
    assert.throws(() => {
      checkCommand({ name: 'ping' });
    }, ValidationError);
    checkCommand({ name: 'Open Profile', type: 2 });
    assert.throws(() => {
      checkCommand({ name: 'Open', type: 3, description: 'no' });
    }, ValidationError);
  });

  it('refuses duplicate names of one type, and allows one name across types', () => {
    checkUniqueNames([{ name: 'a' }, { name: 'a', type: 2 }]);
    assert.throws(() => {
      checkUniqueNames([{ name: 'a' }, { name: 'a', type: 1 }]);
    }, ValidationError);
  });

  it('allows 100 CHAT_INPUT and 5 of each menu type, and no more (30032)', () => {
    const of = (type: number, count: number) => Array.from({ length: count }, () => ({ type }));
    checkLimits([...of(1, 100), ...of(2, 5), ...of(3, 5)]);
    assert.throws(
      () => {
        checkLimits(of(3, 6));
      },
      (error: unknown) => error instanceof BadRequestError && error.discordCode === 30_032,
    );
  });

  it('builds the command object with defaults, and reads the caller fields back from it', () => {
    const command = commandObject(key, { name: 'ping', description: 'Ping!' });
    assert.equal(command['dm_permission'], true);
    assert.equal(command['default_member_permissions'], null);
    assert.equal(command['type'], 1);
    assert.equal('guild_id' in command, false);
    assert.deepEqual(commandObject(key, fieldsOf(command)), command);
    const inGuild = commandObject({ ...key, guildId: '40' }, { name: 'who', type: 2, description: 'ignored' });
    assert.equal(inGuild['guild_id'], '40');
    assert.equal(inGuild['description'], '');
    assert.equal('dm_permission' in inGuild, false);
  });
});
