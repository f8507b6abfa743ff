// Run as its own process by startTracing.test.ts: loads the node's modules (argv[3] = node), starts tracing with the options given as JSON in argv[2] and prints
// whether the tracer is on and which OpenTelemetry SDK modules the process loaded (all of them are CommonJS, so
// require.cache lists them even when imported from ESM).
import { createRequire } from 'node:module';
import { startTracing, type TracingOptions } from '../../../src/tracing/startTracing.js';
import { tracingOn } from '../../../src/tracing/traceScope.js';

const options = JSON.parse(process.argv[2] ?? '{}') as TracingOptions;
// With `node`: every module a node is built from first (none may import the SDK statically).
if (process.argv[3] === 'node') await import('../../../src/main.js');
const handle = await startTracing(options, 'probe-node');
const loaded = Object.keys(createRequire(import.meta.url).cache)
  .filter((path) => /@opentelemetry[\\/](sdk-trace[^\\/]*|exporter-trace[^\\/]*|resources|core)[\\/]/.test(path))
  .map((path) => /@opentelemetry[\\/]([^\\/]+)/.exec(path)?.[1]);
console.log(JSON.stringify({ started: handle !== undefined, on: tracingOn(), loaded: [...new Set(loaded)].sort() }));
await handle?.stop();
