import type { GuildRuntime } from './GuildRuntime.js';
import { VOICE_CHANNEL_TYPES, type VoiceState } from './guildVoice.js';

/**
 * Activation: takes back the voice states the store holds (GuildVoiceStore writes them through), so a guild
 * re-activated after passivation or on another node lists in GUILD_CREATE and its voice state list the
 * members still connected. Runs after the subscriptions loaded: a state whose session is no longer
 * subscribed (it ended while no activation ran, or a write was lost), whose member left or whose channel
 * is gone is dropped from the store rather than restored. Those sessions' ends were already told to the
 * guild as unsubscribes, so nobody is left believing they are connected.
 */
export async function restoreVoiceStates(rt: GuildRuntime): Promise<void> {
  if (!rt.exists) return;
  const state = rt.state;
  const stale: VoiceState[] = [];
  for (const voice of await rt.voiceStore.load()) {
    const channel = state.channels.get(voice.channelId);
    const live =
      state.members.has(voice.userId) &&
      channel !== undefined &&
      VOICE_CHANNEL_TYPES.has(channel.type) &&
      rt.fanout.sessionsOf(voice.userId).includes(voice.sessionId) &&
      !state.voiceStates.has(voice.userId);
    if (live) state.voiceStates.set(voice.userId, voice);
    else stale.push(voice);
  }
  for (const voice of stale) rt.voiceStore.remove(voice);
}
