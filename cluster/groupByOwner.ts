/** Session ids grouped by the node owning each (`ownerOf`), in first-seen order: one fan-out batch per node. */
export function groupByOwner(
  sessionIds: readonly string[],
  ownerOf: (sessionId: string) => string,
): Map<string, string[]> {
  const byNode = new Map<string, string[]>();
  for (const sessionId of sessionIds) {
    const owner = ownerOf(sessionId);
    let group = byNode.get(owner);
    if (!group) byNode.set(owner, (group = []));
    group.push(sessionId);
  }
  return byNode;
}
