// `npm run bench:sessions [-- --sessions N] [--out FILE]`: the connect-storm and idle-memory rows of `npm run bench`
// alone (issue 15 §3, §4), beside the bare baseline of the same run; the row is merged into results.json (or FILE).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startBaseline } from './processes.js';
import { sessionsSection } from './sessionsBench.js';

const outIndex = process.argv.indexOf('--out');
const results = outIndex > 0 ? resolve(process.argv[outIndex + 1] ?? '') : new URL('./results.json', import.meta.url);

const baseline = await startBaseline();
const row = await sessionsSection(baseline);
await baseline.stop();
const previous = existsSync(results) ? (JSON.parse(readFileSync(results, 'utf8')) as Record<string, unknown>) : {};
writeFileSync(results, `${JSON.stringify({ ...previous, sessions: row }, null, 2)}\n`);
