import type { StoredVoiceState, VoiceStateStore } from '../../../actors/runtime/ports/voiceStateStore.js';
import { parseJsonObject } from '../../domain/jsonValue.js';
import { RedisSessionIndex, type RedisSessionIndexOptions, type SessionEntryCodec } from './RedisSessionIndex.js';
import type { RedisConnection } from './connectRedis.js';

/** `{"u":user,"c":channel,"m":selfMute,"d":selfDeaf,"v":selfVideo,"s":suppress,"r":requestToSpeak}`. */
const VOICE_STATE: SessionEntryCodec<StoredVoiceState> = {
  encode: (voice) =>
    JSON.stringify({
      u: voice.userId,
      c: voice.channelId,
      m: voice.selfMute,
      d: voice.selfDeaf,
      v: voice.selfVideo,
      s: voice.suppress,
      r: voice.requestToSpeakTimestamp,
    }),
  decode: (sessionId, value) => {
    let json: ReturnType<typeof parseJsonObject>;
    try {
      json = parseJsonObject(value);
    } catch {
      return undefined; // not written by this codec: skipped, as an unreadable entry is
    }
    const { u: userId, c: channelId, r: requested } = json;
    if (typeof userId !== 'string' || typeof channelId !== 'string') return undefined;
    return {
      sessionId,
      userId,
      channelId,
      selfMute: json['m'] === true,
      selfDeaf: json['d'] === true,
      selfVideo: json['v'] === true,
      suppress: json['s'] === true,
      requestToSpeakTimestamp: typeof requested === 'string' ? requested : null,
    };
  },
};

/**
 * Voice states in Redis (cluster mode): one hash per guild, `<prefix>guild-voice:<guild id>`, field =
 * the session holding the connection, value = the state as JSON. Written by the Guild actor as its
 * voice states change, read when it activates.
 */
export class RedisVoiceStateStore extends RedisSessionIndex<StoredVoiceState> implements VoiceStateStore {
  constructor(redis: RedisConnection, options: RedisSessionIndexOptions) {
    super(redis, options, 'guild-voice', VOICE_STATE);
  }
}
