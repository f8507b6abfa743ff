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
      assert.ok(version > 0);
      const first = new Map([['guild:81384788765712384', '10.0.0.2:7001']]);
      assert.deepEqual(await table.read(), { version, pins: first });
      assert.equal(await table.read(version), version);
      const moved = await table.pin('guild:81384788765712384', '10.0.0.3:7001@1764129000000');
      assert.equal(moved, version + 1, 'a changed pin is the next version');
      const pins = new Map([['guild:81384788765712384', '10.0.0.3:7001@1764129000000']]);
      assert.deepEqual(await table.read(version), { version: moved, pins }, 'an older known version reads the pins');
    });

    it('removes a pin under a new version', async () => {
      const table = fresh();
      await table.pin('guild:1', '10.0.0.2:7001');
      const second = await table.pin('channel:2', '10.0.0.2:7001');
      assert.equal(await table.unpin('guild:1'), second + 1);
      assert.deepEqual(await table.read(), { version: second + 1, pins: new Map([['channel:2', '10.0.0.2:7001']]) });
    });

    it('announces each change to watchers', async () => {
      const table = fresh();
      const heard: number[] = [];
      let heardTwo: () => void = () => undefined;
      const two = new Promise<void>((resolve) => {
        heardTwo = resolve;
      });
      const unwatch = await table.watch((version) => {
        if (heard.push(version) === 2) heardTwo();
      });
      try {
        const written = [await table.pin('guild:1', '10.0.0.2:7001'), await table.unpin('guild:1')];
        await two;
        assert.deepEqual(heard, written);
      } finally {
        await unwatch();
      }
    });

    it('numbers a first pin from the clock, so a store that lost its pins never reuses a version', async () => {
      // A node still holding a version from before a Redis restart would take new pins under it for the old.
      const at = Date.now();
      assert.ok((await fresh().pin('guild:1', '10.0.0.2:7001')) > at);
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
