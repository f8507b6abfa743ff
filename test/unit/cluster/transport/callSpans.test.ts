import assert from 'node:assert/strict';
import { SpanKind, trace, type Attributes, type TextMapPropagator } from '@opentelemetry/api';
import { afterEach, describe, it } from 'mocha';
import { endCallTrace, servedInSpan, startCallTrace } from '../../../../cluster/transport/callSpans.js';
import { endSpan, installTracer, runInSpan, startSpan } from '../../../../src/tracing/traceScope.js';

/** A builder that records what it was asked to build for. */
function recordingBuilder(): { readonly built: string[]; readonly build: (target: string) => Attributes } {
  const built: string[] = [];
  return { built, build: (target) => (built.push(target), { target }) };
}

/** Reads a traceparent, as a call from a traced caller carries. */
const traced = (name: string): string | undefined =>
  name === 'traceparent' ? '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' : undefined;

// The API's tracer without a registered provider: it starts (non-recording) spans, and needs no SDK.
const propagator: TextMapPropagator = { inject: () => undefined, extract: (context) => context, fields: () => [] };
const tracingOn = (): void => {
  installTracer({ tracer: trace.getTracer('callSpans-test'), propagator });
};

describe('span attributes of calls between nodes', () => {
  afterEach(() => {
    installTracer(undefined);
  });

  it('are not built while tracing is off, for a call made or served', async () => {
    const { built, build } = recordingBuilder();
    assert.equal(startCallTrace('Deliver', 'node-b', build, 'asked'), undefined);
    assert.equal(await servedInSpan('Deliver', traced, build, 'served', () => Promise.resolve('reply')), 'reply');
    assert.deepEqual(built, []);
  });

  it('are not built for a call made outside any trace, or served without a trace context, while tracing is on', async () => {
    tracingOn();
    const { built, build } = recordingBuilder();
    assert.equal(startCallTrace('Tell', 'node-b', build, 'untraced'), undefined);
    await servedInSpan(
      'Tell',
      () => undefined,
      build,
      'no-context',
      () => Promise.resolve(),
    );
    assert.deepEqual(built, []);
  });

  it('are built once for each span started, from the target given', async () => {
    tracingOn();
    const { built, build } = recordingBuilder();
    const root = startSpan('caller', SpanKind.INTERNAL, undefined);
    assert.ok(root);
    const call = runInSpan(undefined, root, () => startCallTrace('FanOut', 'node-b', build, 'fanned'));
    assert.ok(call, 'a CLIENT span was started');
    endCallTrace(call);
    endSpan(root);
    await servedInSpan('FanOut', traced, build, 'served', () => Promise.resolve());
    assert.deepEqual(built, ['fanned', 'served']);
  });
});
