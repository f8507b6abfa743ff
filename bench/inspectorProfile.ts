// A CPU profile of a running server process over a chosen stretch (e.g. the fan-out rounds only, not the set-up),
// taken through the inspector protocol: the process is started with --inspect=127.0.0.1:PORT (NODE_OPTIONS).
import { writeFileSync } from 'node:fs';
import WebSocket from 'ws';

/** A profiler session on one process; `stop` writes the .cpuprofile (open it in Chrome DevTools or speedscope). */
export interface InspectorProfiler {
  start(): Promise<void>;
  stop(file: string): Promise<void>;
  close(): void;
}

export async function connectProfiler(inspectPort: number): Promise<InspectorProfiler> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectPort}/json/list`)).json()) as {
    webSocketDebuggerUrl: string;
  }[];
  const url = targets[0]?.webSocketDebuggerUrl;
  if (url === undefined) throw new Error(`no inspector target on port ${inspectPort}`);
  const socket = new WebSocket(url);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let nextId = 1;
  const pending = new Map<number, (result: unknown) => void>();
  socket.on('message', (data: Buffer) => {
    const reply = JSON.parse(data.toString()) as { id?: number; result?: unknown };
    if (reply.id === undefined) return;
    pending.get(reply.id)?.(reply.result);
    pending.delete(reply.id);
  });
  const call = (method: string, params: Record<string, unknown> = {}): Promise<unknown> =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await call('Profiler.enable');
  await call('Profiler.setSamplingInterval', { interval: 200 });
  return {
    start: async () => {
      await call('Profiler.start');
    },
    stop: async (file) => {
      const { profile } = (await call('Profiler.stop')) as { profile: unknown };
      writeFileSync(file, JSON.stringify(profile));
    },
    close: () => {
      socket.close();
    },
  };
}
