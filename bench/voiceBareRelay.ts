// The voice baseline: a bare UDP relay in a process of its own, doing the least work Chorus's media relay does for
// the same packets. `plain` forwards each datagram untouched to every other member; `aead` opens it with the
// sender's key and re-seals it for each other member with that member's key and nonce counter (Chorus's own
// rtpsize functions, AES-GCM), the crypto cost alone without the voice service around it.
// Members join by a control datagram: "JOIN" ‖ ssrc u32 ‖ key 32 bytes, answered "OK"; "RSET" forgets them all.
import { createSocket, type RemoteInfo } from 'node:dgram';
import { openRtpsize, sealRtpsize } from '../src/voice/rtpsizeCrypto.js';
import { VoiceEncryptionMode } from '../src/voice/voiceProtocol.js';

interface BareMember {
  readonly address: string;
  readonly port: number;
  readonly ssrc: number;
  readonly key: Buffer;
  counter: number;
}

const mode = process.argv[2] === 'aead' ? 'aead' : 'plain';
const members: BareMember[] = [];
const bySsrc = new Map<number, BareMember>();
const udp = createSocket('udp4');
const OK = Buffer.from('OK');

function control(packet: Buffer, from: RemoteInfo): boolean {
  const word = packet.subarray(0, 4).toString('latin1');
  if (word === 'RSET') {
    members.length = 0;
    bySsrc.clear();
  } else if (word === 'JOIN' && packet.length === 40) {
    const member = {
      address: from.address,
      port: from.port,
      ssrc: packet.readUInt32BE(4),
      key: Buffer.from(packet.subarray(8)),
      counter: 0,
    };
    members.push(member);
    bySsrc.set(member.ssrc, member);
  } else {
    return false;
  }
  udp.send(OK, from.port, from.address);
  return true;
}

udp.on('message', (packet, from) => {
  if (control(packet, from) || packet.length < 12) return;
  if (mode === 'plain') {
    for (const member of members) {
      if (member.port !== from.port || member.address !== from.address) udp.send(packet, member.port, member.address);
    }
    return;
  }
  const sender = bySsrc.get(packet.readUInt32BE(8));
  if (!sender) return;
  const opened = openRtpsize(VoiceEncryptionMode.aesGcm, sender.key, packet);
  if (!opened) return;
  for (const member of members) {
    if (member === sender) continue;
    member.counter = (member.counter + 1) >>> 0;
    const sealed = sealRtpsize(VoiceEncryptionMode.aesGcm, member.key, opened.header, opened.plaintext, member.counter);
    udp.send(sealed, member.port, member.address);
  }
});

udp.bind(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: udp.address().port })}\n`);
});
