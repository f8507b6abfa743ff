import assert from 'node:assert/strict';
import { AuthorSnapshots } from '../../../actors/channel/AuthorSnapshots.js';
import { channelJson } from '../../../actors/channel/channelJson.js';
import { NonceCache } from '../../../actors/channel/NonceCache.js';
import { KnownUsers, publicUser } from '../../../actors/channel/publicUser.js';
import type { ChannelRecord } from '../../../actors/runtime/ports/records.js';

describe('publicUser', () => {
  it('keeps only public fields of a private user record', () => {
    const user = publicUser(
      JSON.stringify({ id: '1', username: 'ann', discriminator: '0001', email: 'a@b.c', avatar: null, bot: false }),
    );
    assert.deepEqual(user, {
      id: '1',
      username: 'ann',
      discriminator: '0001',
      global_name: null,
      avatar: null,
      public_flags: 0,
    });
  });

  it('marks bots and refuses JSON without an id', () => {
    assert.equal(publicUser('{"id":"2","username":"b","bot":true}')?.['bot'], true);
    assert.equal(publicUser('{"username":"x"}'), undefined);
    assert.equal(publicUser(''), undefined);
    assert.equal(publicUser('{'), undefined);
  });
});

describe('KnownUsers', () => {
  it('answers {id} for unknown users and forgets the oldest past capacity', () => {
    const users = new KnownUsers(2);
    users.remember({ id: '1', username: 'a' }, 0);
    users.remember({ id: '2', username: 'b' }, 10);
    users.remember({ id: '3', username: 'c' }, 20);
    assert.deepEqual(users.get('1'), { id: '1' });
    assert.equal(users.get('3')['username'], 'c');
    assert.equal(users.knowsSince('2', 10), true);
    assert.equal(users.knowsSince('2', 11), false);
  });
});

describe('AuthorSnapshots', () => {
  it('takes the user inside the member JSON, else the fallback', () => {
    const snapshots = new AuthorSnapshots();
    const fallback = () => ({ id: '1' });
    assert.equal(
      snapshots.resolve('1', '{"user":{"id":"1","username":"member"}}', fallback).user['username'],
      'member',
    );
    assert.deepEqual(snapshots.resolve('1', '', fallback).user, { id: '1' });
  });

  it('reuses the snapshot while the member JSON is unchanged', () => {
    const snapshots = new AuthorSnapshots();
    const source = '{"user":{"id":"1","username":"a"}}';
    const first = snapshots.resolve('1', source, () => ({ id: '1' }));
    assert.equal(
      snapshots.resolve('1', source, () => ({ id: '1' })),
      first,
    );
    assert.notEqual(
      snapshots.resolve('1', '{"user":{"id":"1","username":"b"}}', () => ({ id: '1' })),
      first,
    );
  });

  it('ignores a member JSON of another user', () => {
    const snapshots = new AuthorSnapshots();
    assert.deepEqual(snapshots.resolve('1', '{"user":{"id":"2","username":"x"}}', () => ({ id: '1' })).user, {
      id: '1',
    });
  });
});

describe('NonceCache', () => {
  it('finds a nonce per author within the window only', () => {
    const cache = new NonceCache(1_000);
    cache.remember('a', 'n', 'm1', 0);
    assert.equal(cache.find('a', 'n', 500), 'm1');
    assert.equal(cache.find('b', 'n', 500), undefined);
    assert.equal(cache.find('a', 'n', 1_001), undefined);
  });

  it('drops expired entries and stays within capacity', () => {
    const cache = new NonceCache(1_000, 2);
    cache.remember('a', '1', 'm1', 0);
    cache.remember('a', '2', 'm2', 10);
    cache.remember('a', '3', 'm3', 20);
    assert.equal(cache.size, 2);
    cache.remember('a', '4', 'm4', 5_000);
    assert.equal(cache.size, 1);
  });
});

describe('channelJson', () => {
  const dm: ChannelRecord = {
    id: '10',
    guild_id: null,
    type: 1,
    name: null,
    position: 0,
    parent_id: null,
    permission_overwrites: [],
    recipient_ids: ['1', '2'],
    owner_id: null,
    last_message_id: null,
    last_pin_timestamp: null,
    fields: { flags: 0, icon: null },
    created_at: '2024-01-01T00:00:00.000Z',
  };
  const userOf = (id: string) => ({ id, username: `u${id}` });

  it('lists a DM’s other recipients', () => {
    const json = channelJson(dm, '1', userOf);
    assert.deepEqual(json['recipients'], [{ id: '2', username: 'u2' }]);
    assert.equal('guild_id' in json, false);
  });

  it('renders a guild text channel with defaults', () => {
    const text: ChannelRecord = {
      ...dm,
      guild_id: '5',
      type: 0,
      name: 'general',
      recipient_ids: [],
      fields: { topic: 't' },
    };
    const json = channelJson(text, '1', userOf);
    assert.equal(json['guild_id'], '5');
    assert.equal(json['topic'], 't');
    assert.equal(json['nsfw'], false);
    assert.equal(json['rate_limit_per_user'], 0);
    assert.equal(json['last_message_id'], null);
  });
});
