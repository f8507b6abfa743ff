import { readFileSync } from 'node:fs';
import type { MemberInfo } from '../../cluster/membership/Membership.js';
import { CliError, EXIT_USAGE } from './CliError.js';
import type { ClusterTables } from './cliBackends.js';

const USAGE = 'usage: chorus drain <node id | host:port> --token-file <file holding an OPERATOR token>';
/** The node answers POST /stop at once (204) and drains after; a longer wait means it is not answering. */
const STOP_REQUEST_TIMEOUT_MS = 10_000;

/** The live member named by its id or its gRPC `host:port`. */
function memberNamed(nodes: readonly MemberInfo[], name: string): MemberInfo {
  const node = nodes.find((member) => member.nodeId === name || member.grpcAddress === name);
  if (!node) throw new CliError(`no live node ${name} (see chorus nodes)`);
  return node;
}

/**
 * `drain <node> --token-file <file>`: asks one node to leave gracefully through its POST /stop (OPERATOR):
 * it leaves the view, hands its actors and sessions over within CHORUS_DRAIN_TIMEOUT_MS, then exits. The
 * token is read from a file, never the command line (which `ps` shows to every user of the host).
 */
export async function drainCommand(tables: ClusterTables, args: readonly string[]): Promise<string> {
  const [name, flag, tokenFile] = args;
  if (args.length !== 3 || name === undefined || flag !== '--token-file' || tokenFile === undefined)
    throw new CliError(USAGE, EXIT_USAGE);
  let token: string;
  try {
    token = readFileSync(tokenFile, 'utf8').trim();
  } catch (error) {
    throw new CliError(`cannot read ${tokenFile}: ${error instanceof Error ? error.message : String(error)}`);
  }
  const node = memberNamed((await tables.membership.read()).nodes, name);
  const response = await fetch(`${node.httpUrl}/api/v10/stop`, {
    method: 'POST',
    headers: { authorization: token },
    signal: AbortSignal.timeout(STOP_REQUEST_TIMEOUT_MS),
  });
  if (response.status !== 204)
    throw new CliError(`${node.nodeId} refused to stop: ${response.status} ${await response.text()}`);
  return `${node.nodeId} is draining: it leaves the view, hands its actors and sessions over, then exits`;
}
