import type { RunningNode } from '../../src/node/RunningNode.js';

/**
 * Starts a node on an ephemeral HTTP port, and again on another when its derived voice port (HTTP port + 1) was
 * taken by some other process: the node then runs without voice by design, and voice tests would fail on a port
 * clash that has nothing to do with them. A test whose settings name CHORUS_VOICE_PORT gets what it asked for.
 */
export async function startWithVoice(
  settings: Record<string, string>,
  start: () => Promise<RunningNode>,
): Promise<RunningNode> {
  const attempts = 'CHORUS_VOICE_PORT' in settings ? 1 : 5;
  for (let attempt = 1; ; attempt += 1) {
    const node = await start();
    if (node.voice || attempt >= attempts) return node;
    await node.close();
  }
}
