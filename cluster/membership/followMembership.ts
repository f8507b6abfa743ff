import type { ActorSystem } from '../ActorSystem.js';
import type { LeaseKeeper } from '../lease/LeaseKeeper.js';
import { HashRing } from '../ring/HashRing.js';
import type { Membership } from './Membership.js';

/**
 * Keeps the router's ring on the newest membership view and, with leases, hands off the local
 * activations the new ring places elsewhere (their leases are released as they stop, so the new
 * owners can take them without waiting for a ttl). Returns the unsubscribe.
 */
export function followMembership(
  membership: Membership,
  system: ActorSystem,
  vnodesPerNode: number,
  keeper?: LeaseKeeper,
): () => void {
  const install = (): void => {
    const view = membership.current();
    if (view.members.length === 0) return; // an empty ring owns nothing; keep the last usable one
    system.updateRing(new HashRing(view, vnodesPerNode));
    keeper?.handOff((kind, key) => system.ownerOf(kind, key) === system.nodeId);
  };
  install();
  return membership.onChange(install);
}
