import assert from 'node:assert/strict';
import type { PinTable } from '../../cluster/placement/PinTable.js';
import { ValidationError } from '../../src/domain/errors.js';

/**
 * What every PinTable does (STYLE S0.4: the in-memory table passes the suite the Redis one does).
 * `fresh` gives a table over an empty store of its own.
 */
export function pinTableContract(fresh: () => PinTable): void {
  describe('PinTable contract', () => {
    it('starts empty at version 0', async () => {
      assert.deepEqual(await fresh().read(), { version: 0, pins: new Map() });
    });

    it('stores a pin under a new version and answers an unchanged version with the version alone', async () => {
      const table = fresh();
      const version = await table.pin('guild:81384788765712384', '10.0.0.2:7001');
      assert.equal(version, 1);
      assert.deepEqual(await table.read(), {
        version: 1,
        pins: new Map([['guild:81384788765712384', '10.0.0.2:7001']]),
      });
      assert.equal(await table.read(1), 1);
      const moved = await table.pin('guild:81384788765712384', '10.0.0.3:7001@1764129000000');
      assert.equal(moved, 2, 'a changed pin is a new version');
      const pins = new Map([['guild:81384788765712384', '10.0.0.3:7001@1764129000000']]);
      assert.deepEqual(await table.read(1), { version: 2, pins }, 'an older known version reads the pins');
    });

    it('removes a pin under a new version', async () => {
      const table = fresh();
      await table.pin('guild:1', '10.0.0.2:7001');
      await table.pin('channel:2', '10.0.0.2:7001');
      assert.equal(await table.unpin('guild:1'), 3);
      assert.deepEqual(await table.read(), { version: 3, pins: new Map([['channel:2', '10.0.0.2:7001']]) });
    });

    it('announces each change to watchers', async () => {
      const table = fresh();
      const heard: number[] = [];
      let heardTwo: () => void = () => undefined;
      const two = new Promise<void>((resolve) => {
        heardTwo = resolve;
      });
      const unwatch = await table.watch((version) => {
        heard.push(version);
        if (version === 2) heardTwo();
      });
      try {
        await table.pin('guild:1', '10.0.0.2:7001');
        await table.unpin('guild:1');
        await two;
        assert.deepEqual(heard, [1, 2]);
      } finally {
        await unwatch();
      }
    });

    it('refuses a pin of an unknown actor kind or to a malformed node, storing nothing', async () => {
      const table = fresh();
      await assert.rejects(table.pin('planet:1', '10.0.0.1:7001'), ValidationError);
      await assert.rejects(table.pin('guild:', '10.0.0.1:7001'), ValidationError);
      await assert.rejects(table.pin('guild:1', 'not a node'), ValidationError);
      await assert.rejects(table.pin('guild:1', '10.0.0.1:7001@x'), ValidationError);
      assert.deepEqual(await table.read(), { version: 0, pins: new Map() });
    });
  });
}
