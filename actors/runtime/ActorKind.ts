import type { ChannelCommand, ChannelReply } from '../../proto/gen/chorus/v1/channel.js';
import type { GuildCommand, GuildReply } from '../../proto/gen/chorus/v1/guild.js';
import type { SessionCommand, SessionReply } from '../../proto/gen/chorus/v1/session.js';
import type { UserCommand, UserReply } from '../../proto/gen/chorus/v1/user.js';
import type { VoiceRoomCommand, VoiceRoomReply } from '../../proto/gen/chorus/v1/voice.js';

/** The kinds of actor Chorus runs; each key is `kind:id` on the ring. */
export const ActorKind = {
  Guild: 'guild',
  Channel: 'channel',
  User: 'user',
  Session: 'session',
  /** A voice channel's room (key: channel id), so its ring key is the voice placement key `voice:<id>`. */
  Voice: 'voice',
} as const;

/** One actor kind. */
export type ActorKind = (typeof ActorKind)[keyof typeof ActorKind];

/** The proto command each kind accepts. */
export interface CommandMap {
  guild: GuildCommand;
  channel: ChannelCommand;
  user: UserCommand;
  session: SessionCommand;
  voice: VoiceRoomCommand;
}

/** The proto reply each kind answers with. */
export interface ReplyMap {
  guild: GuildReply;
  channel: ChannelReply;
  user: UserReply;
  session: SessionReply;
  voice: VoiceRoomReply;
}

/** Command type of kind K. */
export type CommandOf<K extends ActorKind> = CommandMap[K];
/** Reply type of kind K. */
export type ReplyOf<K extends ActorKind> = ReplyMap[K];

/** Every kind, for iteration. */
export const ACTOR_KINDS: readonly ActorKind[] = Object.values(ActorKind);
