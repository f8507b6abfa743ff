import type { ActorSystem } from '../ActorSystem.js';
import type { LeaseKeeper } from '../lease/LeaseKeeper.js';
import type { PinFollower } from '../placement/PinFollower.js';
import { HashRing } from '../ring/HashRing.js';
import type { Membership } from './Membership.js';

/**
 * Keeps the router's ring on the newest membership view (and placement pins, when followed) and,
 * with leases, hands off the local activations the new ring places elsewhere (their leases are
 * released as they stop, so the new owners can take them without waiting for a ttl). A pin change
 * takes the same path as a view change: the key's old owner evicts its activation, the new one
 * takes the lease. Returns the unsubscribe.
 */
export function followMembership(
  membership: Membership,
  system: ActorSystem,
  vnodesPerNode: number,
  keeper?: LeaseKeeper,
  pins?: PinFollower,
): () => void {
  const install = (): void => {
    const view = membership.current();
    if (view.members.length === 0) return; // an empty ring owns nothing; keep the last usable one
    system.updateRing(new HashRing(view, vnodesPerNode, pins?.current().pins));
    keeper?.handOff((kind, key) => system.placedHere(kind, key));
  };
  install();
  const unfollowView = membership.onChange(install);
  const unfollowPins = pins?.onChange(install);
  return () => {
    unfollowView();
    unfollowPins?.();
  };
}
