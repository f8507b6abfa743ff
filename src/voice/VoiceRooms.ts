import { randomInt } from 'node:crypto';
import type { MemberVoiceState } from '../../proto/gen/chorus/v1/voice.js';
import type { VoiceClaims, VoiceMediaSession } from './VoiceMediaSession.js';
import { VoiceOp } from './voiceProtocol.js';

/** How long a used token nonce is remembered; voice tokens expire well before this. */
const NONCE_MEMORY_MS = 24 * 60 * 60 * 1000;

/**
 * The voice members of one node, grouped by (guild, channel) from their token claims, indexed by ssrc and by
 * (guild, session) for Resume, and the token nonces already used (each token identifies once).
 */
export class VoiceRooms {
  private readonly rooms = new Map<string, Set<VoiceMediaSession>>();
  private readonly bySsrc = new Map<number, VoiceMediaSession>();
  private readonly bySession = new Map<string, VoiceMediaSession>();
  private readonly usedNonces = new Map<string, number>();
  /** The Guild's latest word per channel id, then per `user:session`, for members who identify after it. */
  private readonly told = new Map<string, Map<string, MemberVoiceState>>();

  /** `onVanished`: told of each member dropped because its client is gone, so its guild voice state ends too. */
  constructor(private readonly onVanished: (claims: VoiceClaims) => void = () => undefined) {}

  /** Marks a token nonce used; false when it already was (a replayed token). */
  claimNonce(nonce: string, nowMs: number): boolean {
    if (this.usedNonces.has(nonce)) return false;
    this.usedNonces.set(nonce, nowMs);
    return true;
  }

  /** An ssrc no member of this node holds (never 0). */
  freshSsrc(): number {
    for (;;) {
      const ssrc = randomInt(1, 0xffffffff);
      if (!this.bySsrc.has(ssrc)) return ssrc;
    }
  }

  /** The member a media packet or discovery request names. */
  bySsrcOf(ssrc: number): VoiceMediaSession | undefined {
    return this.bySsrc.get(ssrc);
  }

  /** The member a Resume names. */
  resumable(guildId: string, sessionId: string): VoiceMediaSession | undefined {
    return this.bySession.get(`${guildId}:${sessionId}`);
  }

  /** The other members of a member's channel. */
  othersOf(member: VoiceMediaSession): VoiceMediaSession[] {
    return [...(this.rooms.get(member.roomKey) ?? [])].filter((other) => other !== member);
  }

  /**
   * Who hears a member's media: nobody while the Guild silenced it (the packet counts as dropped), else the
   * others of its channel that are not deafened.
   */
  hearersOf(sender: VoiceMediaSession, stats: { dropped: number }): VoiceMediaSession[] {
    if (sender.silenced) {
      stats.dropped++;
      return [];
    }
    // Runs for every media packet: one array, no spread and filter copies.
    const hearers: VoiceMediaSession[] = [];
    for (const other of this.rooms.get(sender.roomKey) ?? []) {
      if (other !== sender && !other.deafened) hearers.push(other);
    }
    return hearers;
  }

  /**
   * Applies the Guild's decision about a member of channel `channelId`, now to its media session here (only the
   * one of that user and gateway session in that channel: a later join elsewhere is not touched) and to one
   * identifying later. Gone: the session ends with 4014 Disconnected and the channel hears op 13.
   */
  applyMemberState(channelId: string, state: MemberVoiceState): void {
    const memberKey = `${state.userId}:${state.sessionId}`;
    const member = this.memberIn(channelId, state);
    let told = this.told.get(channelId);
    if (state.gone) {
      told?.delete(memberKey);
      if (told?.size === 0) this.told.delete(channelId);
      if (member) this.leave(member, 'disconnected from the voice channel', 4014);
      return;
    }
    if (!told) this.told.set(channelId, (told = new Map<string, MemberVoiceState>()));
    told.set(memberKey, state);
    member?.applyVoiceState(state);
  }

  /**
   * The rooms hosted here that the ring now places elsewhere (`placedHere` false): forgets what the Guild told for
   * them and marks their members handed over (their clients follow a new VOICE_SERVER_UPDATE to the new node and
   * close these sockets: not a leave). Each moved room's guild and channel, once.
   */
  handOver(placedHere: (channelId: string) => boolean): { guildId: string; channelId: string }[] {
    const moved = new Map<string, string>();
    for (const [channelId, told] of this.told) {
      const guildId = told.values().next().value?.guildId;
      if (placedHere(channelId) || guildId === undefined) continue;
      moved.set(channelId, guildId);
      this.told.delete(channelId);
    }
    for (const member of this.all()) {
      const { guildId, channelId } = member.claims;
      if (member.handedOver || placedHere(channelId)) continue;
      member.handedOver = true;
      moved.set(channelId, guildId);
    }
    return [...moved].map(([channelId, guildId]) => ({ guildId, channelId }));
  }

  /** The media session of that user and gateway session in that channel, if it is here. */
  memberIn(
    channelId: string,
    state: Pick<MemberVoiceState, 'guildId' | 'userId' | 'sessionId'>,
  ): VoiceMediaSession | undefined {
    const current = this.bySession.get(`${state.guildId}:${state.sessionId}`);
    return current?.claims.channelId === channelId && current.claims.userId === state.userId ? current : undefined;
  }

  /** Whether this node was told about a member of the channel or hosts media in it. */
  knows(guildId: string, channelId: string): boolean {
    return this.told.has(channelId) || this.rooms.has(`${guildId}:${channelId}`);
  }

  /** Every member, for the heartbeat sweep. */
  all(): VoiceMediaSession[] {
    return [...this.bySsrc.values()];
  }

  /**
   * Adds an identified member: a previous media session of the same gateway session in this guild (a channel
   * move) leaves first; then the newcomer and those present learn of each other (op 11).
   */
  join(member: VoiceMediaSession): void {
    const sessionKey = `${member.claims.guildId}:${member.claims.sessionId}`;
    const previous = this.bySession.get(sessionKey);
    if (previous) this.leave(previous, 'moved to another voice session');
    const { channelId, userId, sessionId } = member.claims;
    const told = this.told.get(channelId)?.get(`${userId}:${sessionId}`);
    if (told) member.applyVoiceState(told);
    let room = this.rooms.get(member.roomKey);
    if (!room) this.rooms.set(member.roomKey, (room = new Set()));
    const present = [...room];
    room.add(member);
    this.bySsrc.set(member.ssrc, member);
    this.bySession.set(sessionKey, member);
    if (present.length > 0) {
      member.sendNumbered(VoiceOp.clientsConnect, { user_ids: present.map((other) => other.claims.userId) });
    }
    for (const other of present) other.sendNumbered(VoiceOp.clientsConnect, { user_ids: [member.claims.userId] });
  }

  /** Removes a member, closes its socket, and tells the rest of its channel (op 13). Idempotent. */
  leave(member: VoiceMediaSession, reason: string, closeCode = 4006): void {
    const sessionKey = `${member.claims.guildId}:${member.claims.sessionId}`;
    if (this.bySsrc.get(member.ssrc) !== member) return;
    this.bySsrc.delete(member.ssrc);
    if (this.bySession.get(sessionKey) === member) this.bySession.delete(sessionKey);
    const room = this.rooms.get(member.roomKey);
    room?.delete(member);
    if (room?.size === 0) this.rooms.delete(member.roomKey);
    const peer = member.peer;
    member.peer = undefined;
    void member.webrtc?.close(); // its UDP port is released with it
    peer?.close(closeCode, reason);
    for (const other of room ?? []) other.sendNumbered(VoiceOp.clientDisconnect, { user_id: member.claims.userId });
  }

  /**
   * Removes a member whose client is gone (heartbeats lapsed, or it closed its socket for good) and reports it,
   * unlike a move or a shutdown, which end the media session while the member stays in voice.
   */
  vanished(member: VoiceMediaSession, reason: string, closeCode: number): void {
    if (this.bySsrc.get(member.ssrc) !== member) return;
    this.leave(member, reason, closeCode);
    if (!member.handedOver) this.onVanished(member.claims);
  }

  /** Removes members silent past the window and forgets nonces older than any live token. */
  sweep(nowMs: number, windowMs: number): void {
    for (const member of this.all()) {
      if (nowMs - member.lastHeartbeatMs > windowMs) this.vanished(member, 'heartbeat timeout', 4009);
    }
    for (const [nonce, usedAt] of this.usedNonces) if (nowMs - usedAt > NONCE_MEMORY_MS) this.usedNonces.delete(nonce);
  }

  /** Closes every member (node shutdown). */
  closeAll(): void {
    for (const member of this.all()) this.leave(member, 'voice server closing', 1001);
  }
}
