import type { CounterHandle, Metrics } from '../domain/Metrics.js';

/** The gateway's counters; open sockets are counted at scrape time from the socket table. */
export interface GatewayCounters {
  /** Client payloads received (heartbeats included). */
  readonly framesIn: CounterHandle;
  /** Frames Session actors pushed to sockets of this node (Hello and heartbeat ACKs are not counted). */
  readonly framesOut: CounterHandle;
  /** WebSocket upgrades accepted. */
  readonly opened: CounterHandle;
}

/** Registers the gateway series; `openSockets` is read at each scrape. */
export function gatewayMetrics(metrics: Metrics, openSockets: () => number): GatewayCounters {
  metrics.gauge({
    name: 'chorus_gateway_sessions',
    help: 'Gateway sockets open on this node (identified or still identifying)',
    collect: (gauge) => {
      gauge.labels().set(openSockets());
    },
  });
  const frames = metrics.counter({
    name: 'chorus_gateway_frames_total',
    help: 'Gateway frames by direction: in = client payloads, out = frames pushed by Session actors',
    labelNames: ['direction'],
  });
  const opened = metrics.counter({
    name: 'chorus_gateway_connections_total',
    help: 'Gateway WebSocket connections accepted',
  });
  return { framesIn: frames.labels('in'), framesOut: frames.labels('out'), opened: opened.labels() };
}
