import type { RoleRecord } from '../runtime/ports/records.js';

/**
 * Applies position requests to a guild's roles and renumbers them 1..n (@everyone stays at 0).
 * Unlisted roles keep their relative order; a listed role that lands on an occupied position goes
 * above the occupant when it moved up and below it when it moved down, as a drag in a client does.
 * Returns every role but @everyone as a copy, in the new order, with its new position.
 */
export function orderRoles(
  sorted: readonly RoleRecord[],
  everyoneId: string,
  requests: readonly { id: string; position: number }[],
): RoleRecord[] {
  const wanted = new Map(requests.filter((r) => r.id !== everyoneId).map((r) => [r.id, r.position]));
  const keyed = sorted
    .filter((role) => role.id !== everyoneId)
    .map((role, index) => {
      const target = wanted.get(role.id);
      const tie = target === undefined || target === role.position ? 0 : target > role.position ? 1 : -1;
      return { role, key: target ?? role.position, tie, index };
    });
  keyed.sort((a, b) => a.key - b.key || a.tie - b.tie || a.index - b.index);
  return keyed.map(({ role }, index) => ({ ...role, position: index + 1 }));
}
