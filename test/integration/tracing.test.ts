import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { createGuild, postMessage } from './gateway/gatewayFixtures.js';
import { OtlpReceiver, SPAN_KIND } from '../support/otlpReceiver.js';
import { registerUser, startTestServer, type TestServer } from '../support/testServer.js';

const MESSAGES_ROUTE = /^POST \/api\/channels\/:[a-z_]+\/messages$/;

describe('traces of a node exported over OTLP', function () {
  this.timeout(30_000);
  let receiver: OtlpReceiver;
  let server: TestServer;

  before(async () => {
    receiver = await OtlpReceiver.start();
    server = await startTestServer({
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_BSP_SCHEDULE_DELAY: '20',
      OTEL_SERVICE_NAME: 'chorus-test',
    });
  });
  after(async () => {
    await server?.stop();
    await receiver?.stop();
  });

  it('exports a request as a SERVER span named by its route, with the Channel turn it caused in its trace', async () => {
    const user = await registerUser(server.api, 'traced');
    const guild = await createGuild(server.api, user.token, 'traced guild');
    const posted = await postMessage(server.api, user.token, guild.channelId, 'follow me');
    assert.ok(posted.id);

    const [edge, turn] = await receiver.until((spans) => {
      const post = spans.find((span) => MESSAGES_ROUTE.test(span.name) && span.kind === SPAN_KIND.server);
      const created = spans.find((span) => span.name === 'channel createMessage' && span.traceId === post?.traceId);
      return post && created ? ([post, created] as const) : undefined;
    });
    assert.equal(edge.parentSpanId, '', 'the request starts its trace');
    assert.equal(edge.attributes['http.request.method'], 'POST');
    assert.equal(edge.attributes['http.response.status_code'], 200);
    assert.match(String(edge.attributes['http.route']), /\/messages$/);
    assert.equal(edge.service, 'chorus-test');
    assert.equal(edge.instance, server.node.nodeId);
    // Paths carry secrets (webhook and interaction tokens): no part of the URL beyond its template is recorded.
    assert.ok(!Object.values(edge.attributes).some((value) => String(value).includes(guild.channelId)), 'URL recorded');

    assert.equal(turn.kind, SPAN_KIND.internal);
    assert.equal(turn.attributes['chorus.actor.kind'], 'channel');
    assert.equal(turn.attributes['chorus.actor.key'], guild.channelId);
    assert.equal(turn.parentSpanId, edge.spanId, 'the Channel turn is a child of the request');
    // What the Channel turn tells (the Guild's dispatch of MESSAGE_CREATE) runs as its child in turn.
    const told = await receiver.until((spans) =>
      spans.find((span) => span.name === 'guild dispatch' && span.parentSpanId === turn.spanId),
    );
    assert.equal(told.traceId, edge.traceId);
  });

  it("continues the caller's trace when the request carries a traceparent", async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const response = await fetch(`${server.api}/gateway`, {
      headers: { traceparent: `00-${traceId}-${callerSpan}-01` },
    });
    assert.equal(response.status, 200);
    const edge = await receiver.until((spans) =>
      spans.find((span) => span.traceId === traceId && span.kind === SPAN_KIND.server),
    );
    assert.equal(edge.parentSpanId, callerSpan);
    assert.match(edge.name, /^GET \/api\/gateway$/);
  });

  it('records a refused request (401) with its status, not as a server error', async () => {
    const response = await fetch(`${server.api}/channels/1/messages`, { headers: { authorization: 'nobody' } });
    assert.equal(response.status, 401);
    const edge = await receiver.until((spans) =>
      spans.find((span) => span.kind === SPAN_KIND.server && span.attributes['http.response.status_code'] === 401),
    );
    assert.notEqual(edge.statusCode, 2, 'a refused request is not a server error');
  });
});
