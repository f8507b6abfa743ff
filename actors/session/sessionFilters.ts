/** The shard a guild's events go to: `(guild_id >> 22) % shardCount`; 0 when unsharded. */
export function shardOfGuild(guildId: string, shardCount: number): number {
  if (shardCount <= 1) return 0;
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/** Whether a session on `[shardId, shardCount]` (count 0 = unsharded) receives this guild's events. */
export function isOnShard(guildId: string, shardId: number, shardCount: number): boolean {
  return shardCount <= 1 || shardOfGuild(guildId, shardCount) === shardId;
}
