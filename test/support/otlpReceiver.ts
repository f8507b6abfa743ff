import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

import { PendingConditions } from './PendingConditions.js';

/** One span as an OTLP/HTTP JSON export carries it, with the resource that sent it. */
export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  /** Empty for a root span. */
  readonly parentSpanId: string;
  readonly name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client. */
  readonly kind: number;
  readonly attributes: Record<string, string | number | boolean>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  readonly statusCode: number;
  /** The exporting process's `service.name` and `service.instance.id`. */
  readonly service: string;
  readonly instance: string;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
  doubleValue?: number;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
  status?: { code?: number };
}
interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: { spans?: OtlpSpan[] }[];
  }[];
}

function attributesOf(list: OtlpAttribute[] | undefined): Record<string, string | number | boolean> {
  const found: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    const plain = value.stringValue ?? value.boolValue ?? value.doubleValue ?? value.intValue;
    if (plain !== undefined)
      found[key] = typeof plain === 'string' && value.intValue !== undefined ? Number(plain) : plain;
  }
  return found;
}

/**
 * A collector's OTLP/HTTP JSON endpoint in the test process: accepts POST /v1/traces, keeps every
 * span, and lets a test await the spans it expects (checked on each export, never by sleeping).
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  readonly #conditions = new PendingConditions();

  private constructor(private readonly server: Server) {}

  static async start(): Promise<OtlpReceiver> {
    const server = createServer();
    const receiver = new OtlpReceiver(server);
    server.on('request', (request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        if (request.method !== 'POST' || request.url !== '/v1/traces') {
          response.writeHead(404).end();
          return;
        }
        receiver.#take(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    return receiver;
  }

  /** The base URL for OTEL_EXPORTER_OTLP_ENDPOINT. */
  get endpoint(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Resolves with what `found` returns once it returns something (on an export received so far or later). */
  async until<T>(found: (spans: readonly ReceivedSpan[]) => T | undefined, timeoutMs = 15_000): Promise<T> {
    let result: T | undefined;
    const timedOut = (): Error =>
      new Error(`spans not exported within ${timeoutMs} ms; got: ${this.spans.map((s) => s.name).join(', ')}`);
    const holds = (): boolean => {
      result = found(this.spans);
      return result !== undefined;
    };
    await this.#conditions.wait(holds, timeoutMs, timedOut);
    // The wait is dropped the moment `holds` is true, so `result` is what that last call found.
    return result as T;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => {
      this.server.close(() => {
        resolve();
      });
    });
  }

  #take(body: OtlpExport): void {
    for (const { resource, scopeSpans } of body.resourceSpans ?? []) {
      const owner = attributesOf(resource?.attributes);
      for (const { spans } of scopeSpans ?? []) {
        for (const span of spans ?? []) {
          this.spans.push({
            traceId: span.traceId,
            spanId: span.spanId,
            parentSpanId: span.parentSpanId ?? '',
            name: span.name,
            kind: span.kind,
            attributes: attributesOf(span.attributes),
            statusCode: span.status?.code ?? 0,
            service: String(owner['service.name'] ?? ''),
            instance: String(owner['service.instance.id'] ?? ''),
          });
        }
      }
    }
    this.#conditions.check();
  }
}
