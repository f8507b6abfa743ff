import assert from 'node:assert/strict';
import {
  INTERACTION_LIFETIME_MS,
  InteractionRegistry,
  type LiveInteraction,
} from '../../../actors/channel/InteractionRegistry.js';

const T0 = 1_700_000_000_000;

/** A live interaction created at `createdAtMs` by `invokerId`. */
function anInteraction(id: string, createdAtMs = T0, invokerId = 'u1'): LiveInteraction {
  return {
    id,
    token: `token-${id}`,
    type: 2,
    applicationId: 'app',
    botUserId: 'bot',
    invokerId,
    nonce: null,
    createdAtMs,
    metadata: {},
    sourceMessageId: null,
    responseType: 20,
    acknowledged: false,
    failed: false,
    originalMessageId: null,
    ephemeral: new Map(),
  };
}

describe('InteractionRegistry', () => {
  it('knows an interaction for its 15 minutes and forgets it after', () => {
    const registry = new InteractionRegistry();
    registry.add(anInteraction('1'), T0);
    assert.equal(registry.get('1', T0 + INTERACTION_LIFETIME_MS - 1)?.id, '1');
    assert.equal(registry.get('1', T0 + INTERACTION_LIFETIME_MS), undefined);
    assert.equal(registry.get('2', T0), undefined);
  });

  it('holds live interactions (keeping its channel from passivating) until the newest expires', () => {
    const registry = new InteractionRegistry();
    assert.equal(registry.holdsLive(T0), false);
    registry.add(anInteraction('1', T0), T0);
    registry.add(anInteraction('2', T0 + 60_000), T0 + 60_000);
    assert.equal(registry.holdsLive(T0 + INTERACTION_LIFETIME_MS), true);
    assert.equal(registry.holdsLive(T0 + 60_000 + INTERACTION_LIFETIME_MS), false);
  });

  it('finds a shown modal for its invoker only, and drops it with its interaction', () => {
    const registry = new InteractionRegistry();
    const live = anInteraction('1');
    registry.add(live, T0);
    registry.showModal(live, { id: 'm1', customId: 'form', inputs: new Map() });
    assert.equal(registry.modalOf('m1', 'u1', T0)?.id, '1');
    assert.equal(registry.modalOf('m1', 'u2', T0), undefined);
    registry.add(anInteraction('2', T0 + INTERACTION_LIFETIME_MS), T0 + INTERACTION_LIFETIME_MS);
    assert.equal(registry.modalOf('m1', 'u1', T0 + INTERACTION_LIFETIME_MS), undefined);
  });
});
