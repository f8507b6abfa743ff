/**
 * `npm run docs:config`: rewrites README.md's configuration table from src/config/configSchema.ts
 * (test/unit/config/configDocs.test.ts fails while the two differ).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { withConfigTable } from '../src/config/configDocs.js';

const path = new URL('../README.md', import.meta.url);
const before = readFileSync(path, 'utf8');
const after = withConfigTable(before);
if (after !== before) writeFileSync(path, after);
console.log(after === before ? 'README.md: config table up to date' : 'README.md: config table rewritten');
