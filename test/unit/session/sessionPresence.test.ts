import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import {
  clientPresence,
  identifyPresence,
  platformOf,
  PresenceBudget,
} from '../../../actors/session/sessionPresence.js';

describe('session presence', () => {
  it('checks a presence against ActivitySchema, removing fields it does not know', () => {
    const body = { status: 'idle', since: 0, afk: false, activities: [{ name: 'a', type: 0, buttons: ['x'] }] };
    assert.deepEqual(clientPresence(body, false), { status: 'idle', activities: [{ name: 'a', type: 0 }] });
  });

  it('is lenient where bots are: no status at Identify (online), no activity type (playing)', () => {
    assert.deepEqual(clientPresence({ activities: [{ name: 'a' }] }, true), {
      status: 'online',
      activities: [{ name: 'a', type: 0 }],
    });
    assert.deepEqual(identifyPresence(''), { status: 'online', activities: [] });
  });

  it('refuses statuses it does not know and activities over Discord limits', () => {
    assert.equal(clientPresence({ status: 'sleeping' }, false), undefined);
    assert.equal(clientPresence({ activities: [] }, false), undefined, 'op 3 needs a status');
    assert.equal(
      clientPresence({ status: 'online', activities: [{ name: 'x'.repeat(129), type: 0 }] }, false),
      undefined,
    );
    const many = Array.from({ length: 17 }, (_, index) => ({ name: `a${index}`, type: 0 }));
    assert.equal(clientPresence({ status: 'online', activities: many }, false), undefined);
    assert.equal(clientPresence('online', false), undefined);
    assert.equal(identifyPresence('{"status":'), undefined);
  });

  it('derives the client_status platform from Identify properties', () => {
    assert.equal(platformOf(JSON.stringify({ os: 'iOS', browser: 'Discord iOS' })), 'mobile');
    assert.equal(platformOf(JSON.stringify({ os: 'Windows', browser: 'Discord Client' })), 'desktop');
    assert.equal(platformOf(JSON.stringify({ $os: 'linux', $browser: 'discord.js' })), 'web');
    assert.equal(platformOf('not json'), 'web');
  });

  it('lets five op 3 through per 60 s window', () => {
    const budget = new PresenceBudget();
    for (let index = 0; index < 5; index += 1) assert.equal(budget.take(1_000 + index), true);
    assert.equal(budget.take(2_000), false);
    assert.equal(budget.take(60_999), false);
    assert.equal(budget.take(61_000), true, 'the first update left the window');
  });
});
