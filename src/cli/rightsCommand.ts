import type { Stores } from '../../actors/runtime/ports/stores.js';
import { Right, type RightName } from '../domain/rights.js';
import { isSnowflake } from '../domain/snowflake.js';
import { CliError, EXIT_USAGE } from './CliError.js';

const NAMES = Object.keys(Right) as RightName[];

/** The mask of the named rights (case-insensitive names, as Spacebar spells them). */
export function rightsMask(names: readonly string[]): bigint {
  if (names.length === 0) throw new CliError('name at least one right', EXIT_USAGE);
  let mask = 0n;
  for (const name of names) {
    const upper = name.toUpperCase() as RightName;
    if (!NAMES.includes(upper)) throw new CliError(`unknown right ${name}; rights: ${NAMES.join(' ')}`, EXIT_USAGE);
    mask |= Right[upper];
  }
  return mask;
}

/** The names of the rights in a mask, in bit order. */
export function rightNames(mask: bigint): string[] {
  return NAMES.filter((name) => (mask & Right[name]) !== 0n);
}

/**
 * `rights show|grant|revoke <user id> [right...]`: reads or rewrites the account's rights mask in the store
 * the nodes use (no actor command sets rights). A User actor keeps the record it loaded, so the change
 * applies when it next loads it: at a node restart, or once it passivated after CHORUS_IDLE_TIMEOUT_MS
 * unused; an account edit by that still-active actor would write its older mask back. Change rights while
 * the user is idle or the nodes are stopped.
 */
export async function rightsCommand(stores: Stores, args: readonly string[]): Promise<string> {
  const [action, userId, ...names] = args;
  if (action !== 'show' && action !== 'grant' && action !== 'revoke')
    throw new CliError('usage: chorus rights show|grant|revoke <user id> [right...]', EXIT_USAGE);
  if (!isSnowflake(userId)) throw new CliError(`not a user id: ${userId ?? '(none)'}`, EXIT_USAGE);
  const mask = action === 'show' ? 0n : rightsMask(names);
  const user = await stores.users.get(userId);
  if (!user) throw new CliError(`unknown user ${userId}`);
  const before = BigInt(user.rights || '0');
  const after = action === 'grant' ? before | mask : before & ~mask;
  const line = `${userId} rights ${after}: ${rightNames(after).join(' ') || '(none)'}`;
  if (after === before) return line;
  await stores.users.update({ ...user, rights: after.toString() });
  return `${line}\n(applies once the user's actor loads the account again: a node restart, or CHORUS_IDLE_TIMEOUT_MS idle)`;
}
