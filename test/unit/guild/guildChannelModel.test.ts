import assert from 'node:assert/strict';
import { GuildState } from '../../../actors/guild/GuildState.js';
import {
  checkParent,
  modifiedChannel,
  newChannelRecord,
  nextPosition,
} from '../../../actors/guild/guildChannelModel.js';
import { ValidationError } from '../../../src/domain/errors.js';
import { aChannel, aGuild } from '../../contract/records.js';

const GUILD = '1000';

function state(): GuildState {
  const guild = new GuildState(aGuild({ id: GUILD }));
  guild.putChannel(aChannel({ id: '2002', guild_id: GUILD, type: 4, position: 0 }));
  guild.putChannel(aChannel({ id: '2003', guild_id: GUILD, type: 0, position: 3 }));
  return guild;
}

const fieldError = (path: string) => (error: unknown) =>
  error instanceof ValidationError && JSON.stringify(error.fieldErrors).includes(`"${path}"`);

describe('guild channel model', () => {
  it('refuses channel types a guild cannot hold directly', () => {
    assert.throws(() => newChannelRecord('1', GUILD, { name: 'dm', type: 1 }, 0, ''), fieldError('type'));
    assert.throws(() => newChannelRecord('1', GUILD, { name: 'thread', type: 11 }, 0, ''), fieldError('type'));
  });

  it('requires a name and trims it', () => {
    assert.throws(() => newChannelRecord('1', GUILD, { type: 0 }, 0, ''), fieldError('name'));
    assert.equal(newChannelRecord('1', GUILD, { name: '  chat ' }, 0, '').name, 'chat');
  });

  it('accepts only a category of the guild as parent, and no parent for a category', () => {
    const guild = state();
    assert.doesNotThrow(() => {
      checkParent(guild, '2002', 0);
    });
    assert.throws(() => {
      checkParent(guild, '2003', 0);
    }, fieldError('parent_id'));
    assert.throws(() => {
      checkParent(guild, '2009', 0);
    }, fieldError('parent_id'));
    assert.throws(() => {
      checkParent(guild, '2002', 4);
    }, fieldError('parent_id'));
  });

  it('places a new channel after the others of its kind', () => {
    const guild = state();
    assert.equal(nextPosition(guild.channels.values(), 0), 4);
    assert.equal(nextPosition(guild.channels.values(), 4), 1);
  });

  it('switches text and announcement channels but refuses other type changes', () => {
    const guild = state();
    const text = guild.channels.get('2003');
    assert.ok(text);
    assert.equal(modifiedChannel(guild, text, { type: 5 }).type, 5);
    assert.throws(() => modifiedChannel(guild, text, { type: 2 }), fieldError('type'));
  });

  it('checks numeric ranges such as rate_limit_per_user', () => {
    const guild = state();
    const text = guild.channels.get('2003');
    assert.ok(text);
    assert.throws(
      () => modifiedChannel(guild, text, { rate_limit_per_user: 99_999 }),
      fieldError('rate_limit_per_user'),
    );
    assert.equal(modifiedChannel(guild, text, { rate_limit_per_user: 10 }).fields['rate_limit_per_user'], 10);
  });
});
