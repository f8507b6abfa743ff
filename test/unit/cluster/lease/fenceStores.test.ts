import assert from 'node:assert/strict';
import { fenceStores, isWriteMethod } from '../../../../actors/runtime/fenceStores.js';
import type { Stores } from '../../../../actors/runtime/ports/stores.js';
import { WrongOwnerError } from '../../../../src/domain/errors.js';

/** Stores whose every method records its name; only the ports this test touches exist. */
function recordingStores(calls: string[]): Stores {
  const port = (name: string): Record<string, () => Promise<string>> =>
    new Proxy(
      {},
      {
        get: (_target, method) => () => {
          calls.push(`${name}.${String(method)}`);
          return Promise.resolve('done');
        },
      },
    );
  return {
    users: port('users'),
    applications: port('applications'),
    guilds: port('guilds'),
    channels: port('channels'),
    messages: port('messages'),
    close: () => Promise.resolve(),
  } as unknown as Stores;
}

describe('fenceStores', () => {
  it('classifies the write methods of the ports', () => {
    const writes = [
      'create',
      'update',
      'saveGuild',
      'saveMember',
      'deleteRole',
      'insert',
      'delete',
      'addReaction',
      'removeReactions',
    ];
    const reads = ['get', 'findByEmail', 'listMembers', 'guildIdsOfUser', 'list', 'listPinned', 'getInvite'];
    assert.deepEqual(
      writes.filter((name) => !isWriteMethod(name)),
      [],
    );
    assert.deepEqual(
      reads.filter((name) => isWriteMethod(name)),
      [],
    );
  });

  it('checks the fence before each write and passes reads straight through', async () => {
    const calls: string[] = [];
    const fenced = fenceStores(recordingStores(calls), () => {
      calls.push('check');
      return Promise.resolve();
    });
    await fenced.users.get('1');
    await fenced.guilds.saveGuild({} as never);
    await fenced.messages.addReaction({} as never);
    assert.deepEqual(calls, ['users.get', 'check', 'guilds.saveGuild', 'check', 'messages.addReaction']);
  });

  it('says no fenced session write applies on call, even over a store in this process', () => {
    const stores = { sessions: { writesApplyOnCall: true, save: () => Promise.resolve() } };
    assert.equal(fenceStores(stores, () => Promise.resolve()).sessions.writesApplyOnCall, false);
  });

  it('refuses a write the fence rejects without reaching storage', async () => {
    const calls: string[] = [];
    const fenced = fenceStores(recordingStores(calls), () => Promise.reject(new WrongOwnerError('deposed')));
    await assert.rejects(fenced.channels.save({} as never), WrongOwnerError);
    await assert.rejects(fenced.messages.delete('1', ['2']), WrongOwnerError);
    assert.equal(await fenced.channels.get('1'), 'done');
    assert.deepEqual(calls, ['channels.get']);
  });
});
