import assert from 'node:assert/strict';
import type { ActorKind } from '../../../actors/runtime/ActorKind.js';
import { tellNodesLeft } from '../../../cluster/nodeLeftNotice.js';

/** A host with these active keys per kind, and a messenger recording its tells as `kind:key <- node`. */
function fixture(active: Partial<Record<ActorKind, string[]>>) {
  const told: string[] = [];
  const host = { activeKeys: (kind: ActorKind) => active[kind] ?? [] };
  const messenger = {
    tell: (kind: ActorKind, key: string, command: unknown) => {
      const { command: inner } = command as { command: { $case: string; nodeLeft: { nodeId: string } } };
      told.push(`${kind}:${key} <- ${inner.$case} ${inner.nodeLeft.nodeId}`);
    },
  };
  return { told, host, messenger };
}

describe('tellNodesLeft', () => {
  it('tells every active Session and Guild here about each node that left the view', () => {
    const { told, host, messenger } = fixture({ session: ['s1', 's2'], guild: ['g1'], user: ['u1'] });
    tellNodesLeft(host, messenger, ['a@1', 'b@1', 'c@1'], ['a@1', 'd@1']);
    assert.deepEqual(told, [
      'session:s1 <- nodeLeft b@1',
      'session:s2 <- nodeLeft b@1',
      'guild:g1 <- nodeLeft b@1',
      'session:s1 <- nodeLeft c@1',
      'session:s2 <- nodeLeft c@1',
      'guild:g1 <- nodeLeft c@1',
    ]);
  });

  it('tells nothing when no node left (one joined, or the same view again)', () => {
    const { told, host, messenger } = fixture({ session: ['s1'], guild: ['g1'] });
    tellNodesLeft(host, messenger, ['a@1'], ['a@1', 'b@1']);
    tellNodesLeft(host, messenger, ['a@1', 'b@1'], ['a@1', 'b@1']);
    assert.deepEqual(told, []);
  });
});
