import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import type { ActivationGuard } from '../../../../actors/runtime/ports/coordination.js';
import { MeteredGuard } from '../../../../cluster/lease/MeteredGuard.js';
import { ServiceUnavailableError, WrongOwnerError } from '../../../../src/domain/errors.js';
import { PromMetrics } from '../../../../src/metrics/PromMetrics.js';
import { parseMetrics, total } from '../../../integration/metricsText.js';

describe('MeteredGuard', () => {
  it('counts lease acquisitions granted, refused (held elsewhere) and failed, and refused commits', async () => {
    const answers: (number | Error)[] = [
      1,
      new WrongOwnerError('held elsewhere'),
      new ServiceUnavailableError('no redis'),
    ];
    let commitRefused = false;
    const inner: ActivationGuard = {
      acquire: () => {
        const answer = answers.shift();
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer ?? 0);
      },
      assertCommittable: () => (commitRefused ? Promise.reject(new WrongOwnerError('lease gone')) : Promise.resolve()),
      release: () => Promise.resolve(),
    };
    const metrics = new PromMetrics();
    const guard = new MeteredGuard(inner, metrics, () => 7);
    assert.equal(await guard.acquire('guild', '1'), 1);
    await assert.rejects(guard.acquire('guild', '2'), WrongOwnerError);
    await assert.rejects(guard.acquire('guild', '3'), ServiceUnavailableError);
    await guard.assertCommittable('guild', '1', 1);
    commitRefused = true;
    await assert.rejects(guard.assertCommittable('guild', '1', 1), WrongOwnerError);
    await guard.release('guild', '1', 1);
    const samples = parseMetrics(await metrics.render());
    const acquired = (outcome: string): number => total(samples, 'chorus_lease_acquisitions_total', { outcome });
    assert.deepEqual([acquired('ok'), acquired('refused'), acquired('failed')], [1, 1, 1]);
    assert.equal(total(samples, 'chorus_lease_commit_checks_total', { outcome: 'ok' }), 1);
    assert.equal(total(samples, 'chorus_lease_commit_checks_total', { outcome: 'refused' }), 1);
    assert.equal(total(samples, 'chorus_lease_acquire_duration_seconds_count'), 3);
    assert.equal(total(samples, 'chorus_leases_held'), 7);
  });
});
