import { ActorKind } from '../../actors/runtime/ActorKind.js';
import type { MembershipView } from '../../cluster/membership/Membership.js';
import { EMPTY_PINS, type PinSet } from '../../cluster/placement/PinTable.js';
import { HashRing } from '../../cluster/ring/HashRing.js';
import { ValidationError } from '../domain/errors.js';
import { CliError, EXIT_USAGE } from './CliError.js';
import type { ClusterTables } from './cliBackends.js';

const KINDS = new Set<string>(Object.values(ActorKind));
/** Keys sampled by `ring --keys N` at most: enough for a per-mille share, still well under a second. */
const MAX_SAMPLED_KEYS = 10_000_000;

/** A duration as the largest two units (`3d4h`, `12m5s`, `800ms`). */
export function formatAge(ms: number): string {
  if (ms < 1_000) return `${Math.max(0, Math.round(ms))}ms`;
  const units: [string, number][] = [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
  ];
  const parts: string[] = [];
  let rest = ms;
  for (const [unit, size] of units) {
    const count = Math.floor(rest / size);
    rest -= count * size;
    if (count > 0 || parts.length > 0) parts.push(`${count}${unit}`);
    if (parts.length === 2) break;
  }
  return parts.join('');
}

async function pinsOf(tables: ClusterTables): Promise<PinSet> {
  const set = await tables.pins.read();
  return typeof set === 'number' ? EMPTY_PINS : set;
}

/** `nodes`: the live members as the cluster's view lists them (a member whose heartbeat lapsed is gone). */
export async function nodesCommand(tables: ClusterTables, now = Date.now()): Promise<string> {
  const view = await tables.membership.read();
  if (view.nodes.length === 0) return `view v${view.version}: no live nodes`;
  const lines = [`view v${view.version}: ${view.nodes.length} node(s)`];
  for (const node of view.nodes) {
    lines.push(
      `${node.nodeId}  grpc ${node.grpcAddress}  http ${node.httpUrl}  voice ${node.voiceEndpoint ?? '-'}  ` +
        `age ${formatAge(now - node.startedAt)}`,
    );
  }
  return lines.join('\n');
}

function ringOf(view: MembershipView, pins: PinSet, vnodesPerNode: number): HashRing {
  if (view.members.length === 0) throw new CliError('no live nodes: the ring is empty');
  return new HashRing(view, vnodesPerNode, pins.pins);
}

/**
 * `ring [--keys N]`: each member's exact share of the hash space; with `--keys N`, also how many of the
 * keys guild:0 .. guild:N-1 each member owns (pins included), to see a sample spread as a node would.
 */
export async function ringCommand(tables: ClusterTables, vnodesPerNode: number, args: string[]): Promise<string> {
  let sample = 0;
  if (args.length > 0) {
    const count = Number(args[1]);
    if (args[0] !== '--keys' || args.length !== 2 || !Number.isInteger(count) || count < 1 || count > MAX_SAMPLED_KEYS)
      throw new CliError(`usage: chorus ring [--keys N] (N from 1 to ${MAX_SAMPLED_KEYS})`, EXIT_USAGE);
    sample = count;
  }
  const [view, pins] = await Promise.all([tables.membership.read(), pinsOf(tables)]);
  const ring = ringOf(view, pins, vnodesPerNode);
  const owned = new Map<string, number>(ring.members.map((member) => [member, 0]));
  for (let index = 0; index < sample; index += 1) {
    const owner = ring.ownerOf(`guild:${index}`);
    owned.set(owner, (owned.get(owner) ?? 0) + 1);
  }
  const lines = [`ring v${view.version}: ${ring.members.length} node(s), ${vnodesPerNode} vnodes each`];
  for (const [member, share] of ring.shares()) {
    const keys = sample > 0 ? `  ${owned.get(member) ?? 0} of ${sample} keys` : '';
    lines.push(`${member}  ${(share * 100).toFixed(2)}%${keys}`);
  }
  return lines.join('\n');
}

/** `where <kind:id>`: the member that owns an actor key now, and the pin that placed it there if any. */
export async function whereCommand(tables: ClusterTables, vnodesPerNode: number, args: string[]): Promise<string> {
  const [key] = args;
  const kind = key?.split(':')[0];
  if (args.length !== 1 || key === undefined || !/^[a-z]+:\S+$/.test(key) || !KINDS.has(kind ?? ''))
    throw new CliError(`usage: chorus where <kind:id>, kind one of ${[...KINDS].join(', ')}`, EXIT_USAGE);
  const [view, pins] = await Promise.all([tables.membership.read(), pinsOf(tables)]);
  const ring = ringOf(view, pins, vnodesPerNode);
  const owner = ring.ownerOf(key);
  const pin = pins.pins.get(key);
  // A guild channel is placed by its guild (cluster/placement/ChannelHomes); this command reads no records.
  if (kind === ActorKind.Channel && pin === undefined)
    return `${key} -> ${owner} (ring v${view.version}) if a DM; a guild channel runs where its guild does: chorus where guild:<guild id>`;
  if (pin === undefined) return `${key} -> ${owner} (ring v${view.version})`;
  if (ring.pinnedOwnerOf(key) !== undefined) return `${key} -> ${owner} (pinned to ${pin}, ring v${view.version})`;
  return `${key} -> ${owner} (ring v${view.version}; pinned to ${pin}, which is not live, so the ring places it)`;
}

/** `pins`: the placement overrides, as every node installs them. */
export async function pinsCommand(tables: ClusterTables): Promise<string> {
  const set = await pinsOf(tables);
  const lines = [`pins v${set.version}${set.pins.size === 0 ? ': none' : ''}`];
  for (const [key, node] of set.pins) lines.push(`${key} -> ${node}`);
  return lines.join('\n');
}

/**
 * `pin <kind:id> <host:port[@incarnation]>` / `unpin <kind:id>`: every node installs the change within its
 * pub/sub delay (at most 5 s when an announcement is lost). A refused pin says why, as the API would.
 */
export async function pinCommand(tables: ClusterTables, action: 'pin' | 'unpin', args: string[]): Promise<string> {
  const expected = action === 'pin' ? 2 : 1;
  const [key, node] = args;
  if (args.length !== expected || key === undefined)
    throw new CliError(
      `usage: chorus ${action === 'pin' ? 'pin <kind:id> <host:port>' : 'unpin <kind:id>'}`,
      EXIT_USAGE,
    );
  try {
    if (action === 'unpin') return `unpinned ${key}: pins v${await tables.pins.unpin(key)}`;
    return `pinned ${key} to ${node ?? ''}: pins v${await tables.pins.pin(key, node ?? '')}`;
  } catch (error) {
    if (error instanceof ValidationError)
      throw new CliError(`${error.message} ${JSON.stringify(error.fieldErrors)}`, EXIT_USAGE);
    throw error;
  }
}
