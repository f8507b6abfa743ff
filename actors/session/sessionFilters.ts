/** Bit indexes of the gateway intents a session checks itself (Discord's GatewayIntentBits). */
export const IntentBit = {
  Guilds: 0,
  GuildMembers: 1,
  GuildVoiceStates: 7,
  GuildMessages: 9,
  DirectMessages: 12,
  MessageContent: 15,
} as const;

/** True when bit `bit` is set in `intents` (arithmetic, so bits above 31 work too). */
export function hasIntentBit(intents: number, bit: number): boolean {
  return Math.floor(intents / 2 ** bit) % 2 === 1;
}

/** Whether a dispatch gated by `intent` (bit index + 1; 0 = not gated) reaches a session holding `intents`. */
export function allowsDispatch(intents: number, intent: number): boolean {
  return intent === 0 || hasIntentBit(intents, intent - 1);
}

/** The shard a guild's events go to: `(guild_id >> 22) % shardCount`; 0 when unsharded. */
export function shardOfGuild(guildId: string, shardCount: number): number {
  if (shardCount <= 1) return 0;
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

/** Whether a session on `[shardId, shardCount]` (count 0 = unsharded) receives this guild's events. */
export function isOnShard(guildId: string, shardId: number, shardCount: number): boolean {
  return shardCount <= 1 || shardOfGuild(guildId, shardCount) === shardId;
}
