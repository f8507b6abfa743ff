import { createHash } from 'node:crypto';
import type { MembershipRedis } from './RedisMembership.js';

/** A Lua script with its SHA-1, so a call can name it by hash (EVALSHA) instead of sending its source. */
export interface LuaScript {
  readonly source: string;
  readonly sha: string;
}

export function luaScript(source: string): LuaScript {
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/**
 * Runs a script: EVALSHA, with EVAL after a NOSCRIPT (Redis restarted empty), so one round trip per call.
 * Membership and the pin table share it; each maps a failure to its own unavailability.
 */
export async function runScript(
  redis: MembershipRedis,
  lua: LuaScript,
  keys: readonly string[],
  args: readonly (string | number)[],
): Promise<unknown> {
  const rest = [String(keys.length), ...keys, ...args.map(String)];
  try {
    return await redis.sendCommand(['EVALSHA', lua.sha, ...rest]);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return redis.sendCommand(['EVAL', lua.source, ...rest]);
  }
}
