import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { noMetrics } from '../../../src/domain/Metrics.js';
import { PromMetrics } from '../../../src/metrics/PromMetrics.js';
import { parseMetrics, pick, total } from '../../integration/metricsText.js';

describe('PromMetrics', () => {
  it('shows a bound series at zero before anything is recorded, then counts', async () => {
    const metrics = new PromMetrics();
    const calls = metrics.counter({ name: 'calls_total', help: 'calls', labelNames: ['outcome'] });
    const errors = calls.labels('error');
    const ok = calls.labels('ok');
    const latency = metrics.histogram({
      name: 'latency_seconds',
      help: 'latency',
      labelNames: ['op'],
      buckets: [0.1, 1],
    });
    const fast = latency.labels('get');
    let samples = parseMetrics(await metrics.render());
    // Shown (one sample each), at zero: not merely absent, which total() would also read as 0.
    for (const [name, labels] of [
      ['calls_total', { outcome: 'error' }],
      ['latency_seconds_count', { op: 'get' }],
      ['latency_seconds_bucket', { op: 'get', le: '+Inf' }],
    ] as const) {
      assert.equal(pick(samples, name, labels).length, 1, `${name} is shown`);
      assert.equal(total(samples, name, labels), 0);
    }
    ok.inc();
    ok.inc(2);
    errors.inc();
    fast.observe(0.05);
    fast.observe(0.5);
    samples = parseMetrics(await metrics.render());
    assert.equal(total(samples, 'calls_total', { outcome: 'ok' }), 3);
    assert.equal(total(samples, 'calls_total', { outcome: 'error' }), 1);
    assert.equal(total(samples, 'latency_seconds_bucket', { op: 'get', le: '0.1' }), 1);
    assert.equal(total(samples, 'latency_seconds_bucket', { op: 'get', le: '1' }), 2);
    assert.equal(total(samples, 'latency_seconds_sum', { op: 'get' }), 0.55);
  });

  it('fills a collected gauge at each scrape and drops the series it did not set this time', async () => {
    const metrics = new PromMetrics();
    let kinds: Record<string, number> = { guild: 2, user: 5 };
    metrics.gauge({
      name: 'live',
      help: 'live',
      labelNames: ['kind'],
      collect: (gauge) => {
        for (const [kind, count] of Object.entries(kinds)) gauge.labels(kind).set(count);
      },
    });
    let samples = parseMetrics(await metrics.render());
    assert.equal(total(samples, 'live', { kind: 'user' }), 5);
    kinds = { guild: 1 };
    samples = parseMetrics(await metrics.render());
    assert.equal(total(samples, 'live', { kind: 'guild' }), 1);
    assert.equal(samples.filter((sample) => sample.name === 'live' && sample.labels.kind === 'user').length, 0);
  });

  it('keeps each node registry apart and includes process metrics', async () => {
    const a = new PromMetrics();
    const b = new PromMetrics();
    a.counter({ name: 'only_in_a_total', help: 'a' }).labels().inc();
    b.counter({ name: 'only_in_a_total', help: 'b' }); // same name, another registry: no clash
    assert.equal(total(parseMetrics(await a.render()), 'only_in_a_total'), 1);
    assert.equal(total(parseMetrics(await b.render()), 'only_in_a_total'), 0);
    assert.ok(total(parseMetrics(await a.render()), 'process_resident_memory_bytes') > 0);
    assert.match(a.contentType, /^text\/plain; version=0\.0\.4/);
  });

  it('records nothing through noMetrics: one shared no-op handle, no gauge collected', () => {
    const handle = noMetrics.histogram({ name: 'x', help: 'x', buckets: [1] }).labels('a');
    handle.observe(1);
    assert.equal(noMetrics.counter({ name: 'y', help: 'y' }).labels(), handle, 'no handle allocated per series');
    noMetrics.gauge({ name: 'g', help: 'g', collect: () => assert.fail('a gauge was collected') });
  });
});
