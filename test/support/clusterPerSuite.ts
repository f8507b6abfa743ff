import { after, afterEach, before } from 'mocha';
import { startCluster, type ClusterOptions, type TestCluster } from './clusterHarness.js';

/** How a suite's cluster is set up, reported on and torn down around it (options of clusterPerSuite). */
export interface SuiteClusterOptions {
  /** Timeout of the `before` hook that starts the cluster and runs setUp (node start is slow). */
  readonly hookTimeoutMs?: number;
  /** Lines of each node's log printed when a test fails. */
  readonly logLines?: number;
  /**
   * The suite's own set-up, run in the same hook once the cluster answers (so under the same timeout);
   * when it throws, every node's log tail is printed, since no test's afterEach will report it.
   */
  readonly setUp?: () => Promise<void>;
  /** The suite's own tear-down (clients, pollers, a paused node), run before the nodes stop; may throw. */
  readonly tearDown?: () => unknown;
}

/**
 * Registers on the enclosing `describe` the hooks every multi-node suite repeats: start a cluster
 * before all tests, print the node logs of a failed test, and stop the nodes and drop their keyspace and
 * Redis keys after all tests (whatever tearDown did). `options` may be a function when they depend on
 * something the suite starts first (it is called in the hook). Returns a handle that reads as the
 * suite's TestCluster once the hook ran: the suite's code keeps writing `cluster.nodes`. A suite's own
 * `before` registered after this call runs with the cluster up; its own `after` runs once it is gone.
 */
export function clusterPerSuite(
  options: ClusterOptions | (() => ClusterOptions | Promise<ClusterOptions>),
  { hookTimeoutMs = 120_000, logLines = 25, setUp, tearDown }: SuiteClusterOptions = {},
): TestCluster {
  let started: TestCluster | undefined;
  before(async function () {
    this.timeout(hookTimeoutMs);
    const cluster = await startCluster(typeof options === 'function' ? await options() : options);
    started = cluster;
    if (setUp) await cluster.reporting(setUp);
  });
  afterEach(function () {
    if (this.currentTest?.state === 'failed' && started) console.log(`node logs:\n${started.logTails(logLines)}`);
  });
  after(async () => {
    try {
      await tearDown?.();
    } finally {
      await started?.after();
    }
  });
  // Bound at `before` time: describe bodies run before any hook, so there is no cluster to return yet.
  return new Proxy<object>(
    {},
    {
      get(_target, key) {
        if (!started) throw new Error(`The suite's cluster is read (.${String(key)}) before it started`);
        const value: unknown = Reflect.get(started, key, started);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(started) : value;
      },
    },
  ) as TestCluster;
}
