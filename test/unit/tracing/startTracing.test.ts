import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, it } from 'mocha';
import { tracesUrl, type TracingOptions } from '../../../src/tracing/startTracing.js';

const OFF: TracingOptions = { endpoint: '', tracesEndpoint: '', serviceName: 'chorus', scheduleDelayMs: 5000 };
const PROBE = fileURLToPath(new URL('./sdkLoadProbe.ts', import.meta.url));

interface ProbeReport {
  readonly started: boolean;
  readonly on: boolean;
  readonly loaded: string[];
}

/** Starts tracing in a fresh process (this one may have loaded the SDK for another test) and reports what it loaded. */
async function probe(options: TracingOptions, loadNode = false): Promise<ProbeReport> {
  const args = ['--import', 'tsx', PROBE, JSON.stringify(options), loadNode ? 'node' : ''];
  const { stdout } = await promisify(execFile)(process.execPath, args);
  return JSON.parse(stdout) as ProbeReport;
}

describe('startTracing', function () {
  this.timeout(90_000);

  it('loads no OpenTelemetry SDK module, in any module of a node, and leaves the tracer off when no endpoint is set', async () => {
    assert.deepEqual(await probe(OFF, true), { started: false, on: false, loaded: [] });
  });

  it('loads the SDK and the OTLP exporter once an endpoint is set', async () => {
    // Nothing listens there: no span is made, so nothing is sent.
    const report = await probe({ ...OFF, endpoint: 'http://127.0.0.1:9' });
    assert.equal(report.started, true);
    assert.equal(report.on, true);
    for (const module of ['sdk-trace-base', 'exporter-trace-otlp-http'])
      assert.ok(report.loaded.includes(module), module);
  });

  it('sends spans to <endpoint>/v1/traces, or to the traces endpoint when that is set', () => {
    assert.equal(tracesUrl(OFF), undefined);
    assert.equal(tracesUrl({ ...OFF, endpoint: 'http://collector:4318/' }), 'http://collector:4318/v1/traces');
    const both = { ...OFF, endpoint: 'http://collector:4318', tracesEndpoint: 'https://traces.example/otlp' };
    assert.equal(tracesUrl(both), 'https://traces.example/otlp');
  });
});
