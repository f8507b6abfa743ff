import assert from 'node:assert/strict';

import { GLOBAL_SCOPE, type ApplicationCommandRecord } from '../../actors/runtime/ports/applicationCommandStore.js';
import type { Stores } from '../../actors/runtime/ports/stores.js';
import { nextId } from './records.js';

/** A command record of `applicationId` in `scope`, its data holding the usual command fields. */
function aCommand(applicationId: string, scope: string, name = `cmd${nextId()}`): ApplicationCommandRecord {
  const id = nextId();
  return {
    id,
    application_id: applicationId,
    scope,
    data: { id, application_id: applicationId, type: 1, name, description: 'A command', version: id },
  };
}

/** ApplicationCommandStore cases of the storage contract. */
export function applicationCommandStoreContract(stores: () => Stores): void {
  const commands = () => stores().applicationCommands;

  it('lists the saved commands of one scope in id order, and no other scope', async () => {
    const applicationId = nextId();
    const guildId = nextId();
    const global = [aCommand(applicationId, GLOBAL_SCOPE), aCommand(applicationId, GLOBAL_SCOPE)];
    const inGuild = aCommand(applicationId, guildId);
    for (const command of [...global].reverse()) await commands().save(command);
    await commands().save(inGuild);
    await commands().save(aCommand(nextId(), GLOBAL_SCOPE));
    assert.deepEqual(await commands().list(applicationId, GLOBAL_SCOPE), global);
    assert.deepEqual(await commands().list(applicationId, guildId), [inGuild]);
    assert.deepEqual(await commands().list(applicationId, nextId()), []);
  });

  it('replaces a command saved again under its id', async () => {
    const command = aCommand(nextId(), GLOBAL_SCOPE);
    await commands().save(command);
    const edited = { ...command, data: { ...command.data, description: 'Edited' } };
    await commands().save(edited);
    assert.deepEqual(await commands().list(command.application_id, GLOBAL_SCOPE), [edited]);
  });

  it('deletes one command and ignores an absent one', async () => {
    const applicationId = nextId();
    const [kept, gone] = [aCommand(applicationId, GLOBAL_SCOPE), aCommand(applicationId, GLOBAL_SCOPE)];
    await commands().save(kept);
    await commands().save(gone);
    await commands().delete(applicationId, GLOBAL_SCOPE, gone.id);
    await commands().delete(applicationId, GLOBAL_SCOPE, nextId());
    assert.deepEqual(await commands().list(applicationId, GLOBAL_SCOPE), [kept]);
  });

  it('overwrites the whole scope with saveAll, keeping other scopes', async () => {
    const applicationId = nextId();
    const guildId = nextId();
    const old = [aCommand(applicationId, GLOBAL_SCOPE), aCommand(applicationId, GLOBAL_SCOPE)];
    const other = aCommand(applicationId, guildId);
    for (const command of [...old, other]) await commands().save(command);
    const kept = { ...old[1], data: { ...old[1]?.data, description: 'Kept' } } as ApplicationCommandRecord;
    const replacement = [kept, aCommand(applicationId, GLOBAL_SCOPE)];
    await commands().saveAll(applicationId, GLOBAL_SCOPE, replacement);
    assert.deepEqual(await commands().list(applicationId, GLOBAL_SCOPE), replacement);
    assert.deepEqual(await commands().list(applicationId, guildId), [other]);
    await commands().saveAll(applicationId, GLOBAL_SCOPE, []);
    assert.deepEqual(await commands().list(applicationId, GLOBAL_SCOPE), []);
  });

  it('keeps a command saved right after a bulk overwrite', async () => {
    const applicationId = nextId();
    await commands().saveAll(applicationId, GLOBAL_SCOPE, [aCommand(applicationId, GLOBAL_SCOPE)]);
    const added = aCommand(applicationId, GLOBAL_SCOPE);
    await commands().save(added);
    assert.equal((await commands().list(applicationId, GLOBAL_SCOPE)).length, 2);
    await commands().saveAll(applicationId, GLOBAL_SCOPE, [added]);
    assert.deepEqual(await commands().list(applicationId, GLOBAL_SCOPE), [added]);
  });
}
