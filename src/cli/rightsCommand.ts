import { readFileSync } from 'node:fs';
import type { Stores } from '../../actors/runtime/ports/stores.js';
import { Right, rightNamed, rightNames, type RightName } from '../domain/rights.js';
import { isSnowflake } from '../domain/snowflake.js';
import { CliError, EXIT_USAGE } from './CliError.js';

const USAGE = 'usage: chorus rights show|grant|revoke <user id> [right...] [--token-file <file>]';
/** A node answers at once (the User actor's turn); longer means it is not answering. */
const REQUEST_TIMEOUT_MS = 10_000;

/** The mask of the named rights (case-insensitive names, as Spacebar spells them). */
export function rightsMask(names: readonly string[]): bigint {
  if (names.length === 0) throw new CliError('name at least one right', EXIT_USAGE);
  let mask = 0n;
  for (const name of names) {
    const right = rightNamed(name);
    if (right === undefined)
      throw new CliError(`unknown right ${name}; rights: ${Object.keys(Right).join(' ')}`, EXIT_USAGE);
    mask |= right;
  }
  return mask;
}

/** One `rights` invocation, checked. */
export interface RightsRequest {
  readonly action: 'show' | 'grant' | 'revoke';
  readonly userId: string;
  /** Upper-case right names (grant, revoke). */
  readonly names: readonly RightName[];
  /** The file named by --token-file: a token of a user holding OPERATOR. */
  readonly tokenFile: string | undefined;
}

/** Parses `rights show|grant|revoke <user id> [right...] [--token-file <file>]`. */
export function parseRightsArgs(args: readonly string[]): RightsRequest {
  const flag = args.indexOf('--token-file');
  const tokenFile = flag === -1 ? undefined : args[flag + 1];
  if (flag !== -1 && tokenFile === undefined) throw new CliError(USAGE, EXIT_USAGE);
  const [action, userId, ...names] = flag === -1 ? args : [...args.slice(0, flag), ...args.slice(flag + 2)];
  if (action !== 'show' && action !== 'grant' && action !== 'revoke') throw new CliError(USAGE, EXIT_USAGE);
  if (!isSnowflake(userId)) throw new CliError(`not a user id: ${userId ?? '(none)'}`, EXIT_USAGE);
  if (action === 'show' && names.length > 0) throw new CliError(USAGE, EXIT_USAGE);
  const mask = action === 'show' ? 0n : rightsMask(names);
  return { action, userId, names: rightNames(mask), tokenFile };
}

function rightsLine(userId: string, mask: bigint): string {
  return `${userId} rights ${mask}: ${rightNames(mask).join(' ') || '(none)'}`;
}

/** The Authorization header the CLI presents: the token in --token-file, else the configured admin token. */
export function credentialOf(request: RightsRequest, adminToken: string): string | undefined {
  if (request.tokenFile !== undefined) {
    try {
      return readFileSync(request.tokenFile, 'utf8').trim();
    } catch (error) {
      throw new CliError(`cannot read ${request.tokenFile}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return adminToken === '' ? undefined : `Bearer ${adminToken}`;
}

/**
 * The change made by a running node (its operator route, which asks the user's actor): the actor's
 * record, the store and the user's next request agree at once. Tries each node in turn; resolves
 * undefined when none could be reached (a node that answered, even with a refusal, ends the attempt).
 */
export async function rightsThroughNode(
  request: RightsRequest,
  nodeUrls: readonly string[],
  credential: string | undefined,
): Promise<string | undefined> {
  const change = request.action === 'show' ? undefined : { [request.action]: request.names };
  for (const url of nodeUrls) {
    let response: Response;
    try {
      response = await fetch(`${url}/api/v10/-/admin/users/${request.userId}/rights`, {
        method: change === undefined ? 'GET' : 'PATCH',
        headers: {
          ...(credential === undefined ? {} : { authorization: credential }),
          ...(change === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(change === undefined ? {} : { body: JSON.stringify(change) }),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
    } catch {
      continue; // not listening (or not answering): the next node, else the store
    }
    const text = await response.text();
    if (response.status === 200) {
      const { rights } = JSON.parse(text) as { rights: string };
      return rightsLine(request.userId, BigInt(rights));
    }
    if (response.status === 404) throw new CliError(`unknown user ${request.userId}`);
    if (response.status === 401 || response.status === 403)
      throw new CliError(
        `${url} refused (${response.status} ${text}): give --token-file <file> holding an OPERATOR user's token, ` +
          'or set CHORUS_ADMIN_TOKEN as the nodes have it',
      );
    throw new CliError(`${url} answered ${response.status} ${text}`);
  }
  return undefined;
}

/**
 * Without a running node: the account rewritten in the store the nodes use. Right only while no node
 * runs: a User actor keeps the record it loaded, so a node running where the CLI could not reach it
 * serves the old rights until the actor passivates, and may write them back with the user's next edit.
 */
export async function rightsInStore(stores: Stores, request: RightsRequest): Promise<string> {
  const user = await stores.users.get(request.userId);
  if (!user) throw new CliError(`unknown user ${request.userId}`);
  const before = BigInt(user.rights || '0');
  const mask = request.names.reduce((all, name) => all | Right[name], 0n);
  const after = request.action === 'grant' ? before | mask : request.action === 'revoke' ? before & ~mask : before;
  if (after !== before) await stores.users.update({ ...user, rights: after.toString() });
  return rightsLine(request.userId, after);
}

/** What the offline path adds to its output. */
export function offlineWarning(tried: readonly string[]): string {
  const where = tried.length === 0 ? 'no node address known' : `tried ${tried.join(', ')}`;
  return (
    `warning: no running node answered (${where}), so the store was read or changed directly. ` +
    "A node started from now on sees it; a node running where the CLI could not reach it keeps the user's " +
    'old rights until their actor passivates (CHORUS_IDLE_TIMEOUT_MS) and may write them back.'
  );
}
