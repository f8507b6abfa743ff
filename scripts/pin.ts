// Placement pins moved to the operator CLI (src/cli): `npx chorus pins`, `npx chorus pin guild:123 10.0.0.2:7001`,
// `npx chorus unpin guild:123`. This keeps the old invocation working:
//   npx tsx scripts/pin.ts [KEY NODE | --unpin KEY]
import { runCli } from '../src/cli/runCli.js';

const [first, second] = process.argv.slice(2);
const argv =
  first === undefined ? ['pins'] : first === '--unpin' ? ['unpin', second ?? ''] : ['pin', first, second ?? ''];
const result = await runCli(argv);
(result.exitCode === 0 ? process.stdout : process.stderr).write(`${result.out}\n`);
process.exitCode = result.exitCode;
