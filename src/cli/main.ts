// The `chorus` operator CLI's entry (bin/chorus.mjs runs it compiled, or through tsx in a checkout).
import { runCli } from './runCli.js';

const result = await runCli(process.argv.slice(2));
(result.exitCode === 0 ? process.stdout : process.stderr).write(`${result.out}\n`);
process.exitCode = result.exitCode;
