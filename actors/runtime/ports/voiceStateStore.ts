import type { SessionIndexStore } from './sessionIndex.js';

/**
 * One member's voice connection in a guild, as the Guild actor keeps it (one per user, held by one
 * gateway session). Stored outside the actor, where guild subscriptions live, so that a Guild
 * re-activated after passivation or on another node (its node died) still lists the members that are
 * connected: their clients stay in the voice service and would not re-send op 4.
 */
export interface StoredVoiceState {
  readonly sessionId: string;
  readonly userId: string;
  readonly channelId: string;
  readonly selfMute: boolean;
  readonly selfDeaf: boolean;
  readonly selfVideo: boolean;
  readonly suppress: boolean;
  readonly requestToSpeakTimestamp: string | null;
}

/** Voice states per guild, one entry per holding session. */
export type VoiceStateStore = SessionIndexStore<StoredVoiceState>;
