import type { RemoteInfo, Socket } from 'node:dgram';
import { discoveryResponse, parseDiscoveryRequest } from './ipDiscovery.js';
import { openRtpsize, sealRtpsize } from './rtpsizeCrypto.js';
import type { VoiceMediaSession } from './VoiceMediaSession.js';
import type { VoiceRooms } from './VoiceRooms.js';

/** Keep-alives are an 8-byte counter; they only keep NAT bindings open. */
const KEEP_ALIVE_BYTES = 8;
/** RTCP packet types (SR, RR, SDES, BYE, APP) share the second byte's range; they are not forwarded. */
const RTCP_TYPES = { first: 200, last: 204 } as const;

/** Counters of what the relay did, for tests and logs. */
export interface MediaRelayStats {
  forwarded: number;
  dropped: number;
}

/** Where opened UDP media goes for a receiver on WebRTC (the WebRTC bridge). */
export interface WebRtcOutlet {
  /** Forwards one opened UDP packet to those of `receivers` that are web clients (the others are skipped). */
  fromUdp(
    sender: VoiceMediaSession,
    receivers: readonly VoiceMediaSession[],
    header: Uint8Array,
    plaintext: Uint8Array,
  ): void;
}

/** Seals a clear header and plaintext for one UDP receiver (its key, mode and nonce counter) and sends it. */
export function sendSealed(
  udp: Socket,
  receiver: VoiceMediaSession,
  header: Uint8Array,
  plaintext: Uint8Array,
  stats: MediaRelayStats,
): void {
  if (!receiver.secretKey || !receiver.mode || !receiver.address) return;
  const sealed = sealRtpsize(receiver.mode, receiver.secretKey, header, plaintext, receiver.nextOutboundCounter());
  udp.send(sealed, receiver.address.port, receiver.address.address);
  stats.forwarded++;
}

/**
 * Handles one datagram on the voice UDP socket: answers IP discovery (binding the member's media address), and
 * forwards an rtpsize-encrypted RTP packet from a known member's own address to every other member of its channel,
 * re-sealed with each receiver's key and mode. Anything else is dropped.
 */
export function relayDatagram(
  udp: Socket,
  rooms: VoiceRooms,
  packet: Buffer,
  from: RemoteInfo,
  stats: MediaRelayStats,
  webrtc?: WebRtcOutlet,
): void {
  const drop = (): void => {
    stats.dropped++;
  };
  const discoverySsrc = parseDiscoveryRequest(packet);
  if (discoverySsrc !== undefined) {
    const member = rooms.bySsrcOf(discoverySsrc);
    // The first discovery binds an ssrc's address for good: the whole channel learns ssrcs (op 5), so answering
    // one from elsewhere would let any of them take over a member's media.
    const bound = member?.address;
    const elsewhere = bound !== undefined && (bound.address !== from.address || bound.port !== from.port);
    if (!member || from.family !== 'IPv4' || elsewhere) {
      drop();
      return;
    }
    member.address = { address: from.address, port: from.port };
    udp.send(discoveryResponse(discoverySsrc, from.address, from.port), from.port, from.address);
    return;
  }
  if (packet.length === KEEP_ALIVE_BYTES) return;
  const second = packet[1] ?? 0;
  const isRtp = packet.length >= 12 && (packet[0] ?? 0) >> 6 === 2;
  if (!isRtp || (second >= RTCP_TYPES.first && second <= RTCP_TYPES.last)) {
    drop();
    return;
  }
  const sender = rooms.bySsrcOf(packet.readUInt32BE(8));
  const fromItsAddress = sender?.address?.address === from.address && sender.address.port === from.port;
  if (!sender?.secretKey || !sender.mode || !(fromItsAddress || !sender.address)) {
    drop();
    return;
  }
  const opened = openRtpsize(sender.mode, sender.secretKey, packet);
  if (!opened) {
    drop();
    return;
  }
  // A member that skipped IP discovery is bound by its first packet that opens: only it holds the key.
  sender.address ??= { address: from.address, port: from.port };
  const hearers = rooms.hearersOf(sender, stats);
  let webReceivers = 0;
  for (const receiver of hearers) {
    if (receiver.webrtc) webReceivers++;
    else sendSealed(udp, receiver, opened.header, opened.plaintext, stats);
  }
  // One RTP packet for all of them, made once (each peer numbers its own header from it).
  if (webReceivers > 0) webrtc?.fromUdp(sender, hearers, opened.header, opened.plaintext);
}
