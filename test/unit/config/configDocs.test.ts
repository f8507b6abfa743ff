import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { configRows, configTable, documentedRows, withConfigTable } from '../../../src/config/configDocs.js';
import { CONFIG_OPTIONS } from '../../../src/config/configOptions.js';

const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

describe('README configuration table', () => {
  it('documents exactly the options of the schema (run `npm run docs:config` after changing one)', () => {
    const documented = documentedRows(README);
    assert.deepEqual(
      documented.map((cells) => cells[0]),
      CONFIG_OPTIONS.map((option) => `\`${option.env}\``),
    );
    assert.deepEqual(documented, configRows());
  });

  it('is byte for byte what docs:config writes', () => {
    assert.equal(withConfigTable(README), README);
  });

  it('would catch an option added to the schema but not to the README, and one only in the README', () => {
    const rows = configRows();
    const missing = README.replace(/^\| `CHORUS_VNODES` .*\n/m, '');
    assert.notDeepEqual(documentedRows(missing), rows);
    const extra = README.replace(/^(\| `CHORUS_VNODES` .*\n)/m, '$1| `CHORUS_UNKNOWN` | 1 | an integer | nothing |\n');
    assert.notDeepEqual(documentedRows(extra), rows);
  });

  it('has every option described and a default shown', () => {
    for (const cells of configRows()) for (const cell of cells) assert.notEqual(cell.trim(), '', cells.join(' | '));
    assert.match(configTable(), /^\| variable +\| default +\| allowed +\| meaning +\|$/m);
  });
});
