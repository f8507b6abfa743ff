import type { Config } from '../config/Config.js';
import { loadConfig } from '../config/loadConfig.js';
import { UNCOUNTED } from '../domain/InstanceCounter.js';
import { CliError, EXIT_USAGE } from './CliError.js';
import { nodeUrlsOf, openClusterTables, openRecords, type ClusterTables } from './cliBackends.js';
import { drainCommand } from './drainCommand.js';
import { nodesCommand, pinCommand, pinsCommand, ringCommand, whereCommand } from './clusterCommands.js';
import { credentialOf, offlineWarning, parseRightsArgs, rightsInStore, rightsThroughNode } from './rightsCommand.js';

export const USAGE = `usage: chorus <command> (configured by the same CHORUS_* variables as the node)
  rights show <user id>                    an account's instance rights
  rights grant <user id> <right...>        adds rights (Spacebar's names, e.g. OPERATOR CREATE_GUILDS)
  rights revoke <user id> <right...>       removes rights
      through a running node (as CHORUS_ADMIN_TOKEN, or --token-file <file> with an OPERATOR user's
      token), so it applies at once; with no node running, in the store directly (with a warning)
  stats                                    counts of users, guilds, messages, members (GET /policies/stats/)
  nodes                                    the cluster's live nodes (Redis membership)
  ring [--keys N]                          each node's share of the ring; N sample keys placed
  where <kind:id>                          the node that owns an actor key (guild:123), and its pin
  pins                                     the placement pins
  pin <kind:id> <host:port[@start]>        pins a key to a node
  unpin <kind:id>                          lets a key follow the ring again
  drain <node> --token-file <file>         asks a node to leave gracefully (its POST /stop, OPERATOR token)`;

/** What a command prints and the status the process exits with. */
export interface CliResult {
  readonly out: string;
  readonly exitCode: number;
}

async function withRecords(config: Config, work: (stores: Awaited<ReturnType<typeof openRecords>>) => Promise<string>) {
  const stores = await openRecords(config);
  try {
    return await work(stores);
  } finally {
    await stores.close();
  }
}

async function withCluster(config: Config, work: (tables: ClusterTables) => Promise<string>): Promise<string> {
  const tables = await openClusterTables(config);
  try {
    return await work(tables);
  } finally {
    tables.close();
  }
}

/**
 * `rights ...`: through a running node's operator route when one answers (the user's actor applies the
 * change, so their next request uses it); otherwise the store directly, with a warning.
 */
async function rights(config: Config, args: readonly string[]): Promise<string> {
  const request = parseRightsArgs(args);
  const urls = await nodeUrlsOf(config);
  const online = await rightsThroughNode(request, urls, credentialOf(request, config.operator.adminToken));
  if (online !== undefined) return online;
  const line = await withRecords(config, (stores) => rightsInStore(stores, request));
  return request.action === 'show' ? line : `${line}\n${offlineWarning(urls)}`;
}

async function run(command: string | undefined, args: string[], env?: NodeJS.ProcessEnv): Promise<string> {
  if (command === undefined || command === 'help' || command === '--help') throw new CliError(USAGE, EXIT_USAGE);
  // Config is read only for a known command, so a typo gets the usage even with a broken environment.
  const known = ['rights', 'stats', 'nodes', 'ring', 'where', 'pins', 'pin', 'unpin', 'drain'];
  if (!known.includes(command)) throw new CliError(`unknown command ${command}\n${USAGE}`, EXIT_USAGE);
  const config = loadConfig(env);
  const vnodes = config.cluster.vnodesPerNode;
  switch (command) {
    case 'rights':
      return rights(config, args);
    case 'stats':
      return withRecords(config, async (stores) =>
        JSON.stringify({ counts: (await stores.counts?.counts()) ?? UNCOUNTED }),
      );
    case 'nodes':
      return withCluster(config, (tables) => nodesCommand(tables));
    case 'ring':
      return withCluster(config, (tables) => ringCommand(tables, vnodes, args));
    case 'where':
      return withCluster(config, (tables) => whereCommand(tables, vnodes, args));
    case 'pins':
      return withCluster(config, (tables) => pinsCommand(tables));
    case 'pin':
    case 'unpin':
      return withCluster(config, (tables) => pinCommand(tables, command, args));
    default:
      return withCluster(config, (tables) => drainCommand(tables, args));
  }
}

/** Runs one `chorus` command line (argv without node and script) with `env` (the process's by default); never throws. */
export async function runCli(argv: readonly string[], env?: NodeJS.ProcessEnv): Promise<CliResult> {
  const [command, ...args] = argv;
  try {
    return { out: await run(command, args, env), exitCode: 0 };
  } catch (error) {
    if (error instanceof CliError) return { out: error.message, exitCode: error.exitCode };
    return { out: `chorus ${command ?? ''}: ${error instanceof Error ? error.message : String(error)}`, exitCode: 1 };
  }
}
