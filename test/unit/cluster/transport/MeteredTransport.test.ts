import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import { MeteredTransport } from '../../../../cluster/transport/MeteredTransport.js';
import type { RemoteTransport } from '../../../../cluster/transport/RemoteTransport.js';
import { ServiceUnavailableError, type AppError } from '../../../../src/domain/errors.js';
import { PromMetrics } from '../../../../src/metrics/PromMetrics.js';
import { parseMetrics, total } from '../../../integration/metricsText.js';
import { addressOf } from '../../../../cluster/transport/GrpcClientPool.js';

/** Answers asks and acknowledges sends as told; `failNext` makes the next call fail. */
function fakeTransport(): RemoteTransport & { failNext: boolean; pushed: number } {
  const fake = {
    failNext: false,
    pushed: 0,
    outcome(): AppError | undefined {
      const failed = fake.failNext;
      fake.failNext = false;
      return failed ? new ServiceUnavailableError('peer gone') : undefined;
    },
    ask: () => {
      const error = fake.outcome();
      return error ? Promise.reject(error) : Promise.resolve({} as never);
    },
    tell: (_node: string, _kind: string, _key: string, _command: unknown, done?: (error?: AppError) => void) => {
      const error = fake.outcome();
      setImmediate(() => done?.(error));
    },
    fanOut: (_node: string, _ids: unknown, _event: unknown, _source?: string, done?: (error?: AppError) => void) => {
      setImmediate(() => done?.(fake.outcome()));
    },
    pushFrames: () => {
      fake.pushed += 1;
    },
  };
  return fake;
}

describe('MeteredTransport', () => {
  it('labels a peer by its address, one series across its restarts', () => {
    assert.equal(addressOf('10.0.0.7:50051@1764130000000'), '10.0.0.7:50051');
    assert.equal(addressOf('chorus-2:50051'), 'chorus-2:50051');
  });

  it('counts and times asks, tells and fan-outs per peer by outcome, and still reports to the caller', async () => {
    const metrics = new PromMetrics();
    const inner = fakeTransport();
    const transport = new MeteredTransport(inner, metrics);
    const peer = 'host-b:5001@123';
    await transport.ask(peer, 'user', '1', {}, 1000);
    inner.failNext = true;
    await assert.rejects(transport.ask(peer, 'user', '1', {}, 1000), /peer gone/);
    const told = await new Promise<AppError | undefined>((resolve) => {
      inner.failNext = true;
      transport.tell(peer, 'guild', '2', {}, resolve);
    });
    assert.equal(told?.message, 'peer gone');
    await new Promise<void>((resolve) => {
      transport.fanOut(peer, ['s1', 's2'], {} as never, 'guild:2', () => {
        resolve();
      });
    });
    transport.tell(peer, 'guild', '2', {}); // no callback of the caller's: still measured
    transport.pushFrames(peer, 'socket', ['{}'], 0);
    assert.equal(inner.pushed, 1);
    await new Promise((resolve) => setImmediate(resolve));
    const samples = parseMetrics(await metrics.render());
    const calls = (call: string, outcome: string): number =>
      total(samples, 'chorus_remote_calls_total', { peer: 'host-b:5001', call, outcome });
    assert.deepEqual(
      [calls('ask', 'ok'), calls('ask', 'error'), calls('tell', 'ok'), calls('tell', 'error'), calls('fanout', 'ok')],
      [1, 1, 1, 1, 1],
    );
    assert.equal(calls('push', 'sent'), 1);
    const seconds = 'chorus_remote_call_duration_seconds_count';
    assert.equal(total(samples, seconds, { peer: 'host-b:5001', call: 'ask' }), 2);
    assert.equal(total(samples, seconds, { peer: 'host-b:5001', call: 'tell' }), 2);
  });
});
