/** What the watchdog needs of a node-redis client (structural, so a test can hand it a stand-in). */
export interface WatchedClient {
  readonly isReady: boolean;
  ping(): Promise<unknown>;
  destroy(): void;
  connect(): Promise<unknown>;
  on(event: 'end', listener: () => void): unknown;
}

/**
 * One liveness check per connection instead of a timeout per command: with commandOptions.timeout,
 * node-redis arms an AbortSignal.timeout for every command (3–4% of a cluster node's CPU under load).
 * Every `intervalMs` a PING must answer within `deadlineMs`; when it does not, the connection is failed
 * (destroyed, which rejects every command waiting on it, and opened again). So a command sent just
 * before Redis hung still fails within about interval + deadline instead of waiting forever.
 * A client its owner closed ('end' not caused here) is left alone and the watchdog stops.
 */
export function watchConnection(
  client: WatchedClient,
  options: { readonly intervalMs: number; readonly deadlineMs: number; readonly onHung: (error: Error) => void },
): void {
  let failing = false;
  let probing = false;
  let destroying = false; // 'end' emitted by our own destroy() (synchronously) is not the owner's close
  const probe = (): void => {
    if (probing || failing || !client.isReady) return;
    probing = true;
    let answered = false;
    const settle = (): void => {
      answered = true;
      probing = false;
      clearTimeout(deadline);
    };
    const deadline = setTimeout(() => {
      // A reply may already wait in the socket when this node's own event loop was stalled (GC, SIGSTOP):
      // timers run before I/O in a loop turn, so look again after the poll phase has read it.
      setImmediate(() => {
        if (answered) return;
        probing = false;
        fail(new Error(`redis: no reply to PING within ${options.deadlineMs} ms`));
      });
    }, options.deadlineMs);
    deadline.unref();
    client.ping().then(settle, settle);
  };
  const fail = (error: Error): void => {
    failing = true;
    options.onHung(error);
    destroying = true;
    client.destroy();
    destroying = false;
    // The client's reconnect strategy retries until Redis answers again.
    client
      .connect()
      .catch(() => undefined)
      .finally(() => {
        failing = false;
      });
  };
  const timer = setInterval(probe, options.intervalMs);
  timer.unref();
  client.on('end', () => {
    if (!destroying) clearInterval(timer);
  });
}
