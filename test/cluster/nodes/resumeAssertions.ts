import assert from 'node:assert/strict';
import type { GatewayClient } from '../../support/GatewayClient.js';

/**
 * Checks a resume (op 6 already sent on `client`): RESUMED (not op 9), every dispatch from `seq + 1`
 * on without a gap, the MESSAGE_CREATEs of `missedIds` exactly and in order, and at least the first
 * of them replayed before RESUMED (messages in `alreadySeen`, delivered before, may repeat). A dispatch still on its way to the Session actor when the resume
 * arrived is delivered live right after RESUMED, which a client cannot tell from a replay.
 */
export async function assertResumed(
  client: GatewayClient,
  seq: number,
  missedIds: readonly string[],
  alreadySeen: ReadonlySet<string> = new Set(),
): Promise<void> {
  const answer = await client.waitFor('RESUMED or op 9', (frame) => frame.op === 9 || frame.t === 'RESUMED', {
    timeoutMs: 15_000,
  });
  assert.notEqual(answer.op, 9, 'the resume is answered op 9 Invalid Session: the session is gone');
  await client.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === missedIds.at(-1), {
    timeoutMs: 10_000,
  });
  const dispatches = client.frames.filter((frame) => frame.op === 0);
  assert.deepEqual(
    dispatches.map((frame) => `${frame.t} #${frame.s}`),
    dispatches.map((frame, index) => `${frame.t} #${seq + 1 + index}`),
    'the session continues its sequence without a gap',
  );
  // Delivery is at least once: a message the old connection already had may come again (a fan-out
  // re-sent because its acknowledgement died with the node), under a new sequence number.
  assert.deepEqual(
    client
      .dispatches<{ id: string }>('MESSAGE_CREATE')
      .map((frame) => frame.d.id)
      .filter((id) => !alreadySeen.has(id)),
    missedIds,
  );
  assert.notEqual(dispatches[0]?.t, 'RESUMED', 'the missed dispatches are replayed before RESUMED');
}
