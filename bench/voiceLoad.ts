import { readdir, readFile } from 'node:fs/promises';
import { openRtpsize, sealRtpsize } from '../src/voice/rtpsizeCrypto.js';
import { VoiceEncryptionMode } from '../src/voice/voiceProtocol.js';
import { cpuMs, summarize } from './stats.js';
import type { LoadMember } from './voiceMember.js';

/** An opus frame of 20 ms at ~48 kb/s; the send time (float64) rides in its first bytes. */
const PAYLOAD_BYTES = 120;
/** Every so many received packets one is opened and its embedded send time checked. */
const VERIFY_EVERY = 25;
/** Time for packets in flight when the speakers stop to arrive, before the CPU reading. */
const DRAIN_MS = 300;
/** The relay's CPU with its members connected and silent (timers, heartbeats), taken before the load. */
const IDLE_MS = 400;

/**
 * CPU time a process has used so far, in ms with ns precision: the sum over its threads of /proc schedstat's
 * on-CPU time (/proc stat counts 10 ms ticks, too coarse for a second of a mostly idle process).
 */
async function cpuTimeMs(pid: number): Promise<number> {
  let total = 0;
  for (const task of await readdir(`/proc/${pid}/task`)) {
    try {
      total += Number((await readFile(`/proc/${pid}/task/${task}/schedstat`, 'utf8')).split(' ')[0]);
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return total > 0 ? total / 1e6 : cpuMs(pid);
}

/** What one relay did for one channel size under the same offered load. */
export interface VoiceRun {
  readonly members: number;
  readonly speakers: number;
  /** Packets the speakers sent per second, all together (offered), and the copies that implies (× members − 1). */
  readonly offeredPerSecond: number;
  readonly expectedForwards: number;
  readonly forwarded: number;
  readonly forwardedPerSecond: number;
  /** CPU the relay process used over the measured window (all threads), and its idle rate before the load. */
  readonly cpuMs: number;
  readonly idleCpuMsPerSecond: number;
  readonly cpuMsPer1000: number;
  /** The same less the idle rate over the window: what the packets themselves cost (noisy at low rates). */
  readonly netCpuMsPer1000: number;
  /** Forwarded packets per CPU-second (raw): what one core would forward, if the relay kept it busy. */
  readonly forwardedPerCoreSecond: number;
  /** Send → receive on this host, ms. */
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** Sampled packets opened with the key the receiver holds and found to carry their send time. */
  readonly verified: number;
  readonly corrupt: number;
}

/** How the load runs. `reSealed`: the relay seals per receiver (Chorus, the aead baseline), else forwards as sent. */
export interface VoiceLoadOptions {
  readonly members: readonly LoadMember[];
  readonly relayPort: number;
  readonly pid: number;
  readonly speakers: number;
  readonly packetsPerSecond: number;
  readonly seconds: number;
  readonly warmupMs: number;
  readonly reSealed: boolean;
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Per-member RTP sequence and nonce counters, kept across runs (a relay may remember the nonces it saw). */
const counters = new WeakMap<LoadMember, { seq: number; nonce: number }>();

function mediaPacket(speaker: LoadMember, sentAt: number): { packet: Buffer; seq: number } {
  const state = counters.get(speaker) ?? { seq: 0, nonce: 0 };
  counters.set(speaker, state);
  state.seq = (state.seq + 1) & 0xffff;
  state.nonce = (state.nonce + 1) >>> 0;
  const header = Buffer.alloc(12);
  header[0] = 0x80;
  header[1] = 0x78;
  header.writeUInt16BE(state.seq, 2);
  header.writeUInt32BE((state.seq * 960) >>> 0, 4);
  header.writeUInt32BE(speaker.ssrc, 8);
  const payload = Buffer.alloc(PAYLOAD_BYTES, 0xa5);
  payload.writeDoubleBE(sentAt, 0);
  return { packet: sealRtpsize(VoiceEncryptionMode.aesGcm, speaker.key, header, payload, state.nonce), seq: state.seq };
}

/**
 * Issue 13 §7's load: `speakers` of the members each send a 20 ms opus-sized frame at `packetsPerSecond` (staggered
 * over the period) to the relay; every member's socket counts what reaches it and its latency, identified by the
 * clear RTP header (ssrc, seq). After a warm-up, forwarded packets, CPU of the relay process and latency are taken
 * over `seconds`.
 */
export async function runVoiceLoad(options: VoiceLoadOptions): Promise<VoiceRun> {
  const { members, relayPort, pid, packetsPerSecond, seconds, warmupMs, reSealed } = options;
  const speakers = members.slice(0, Math.min(options.speakers, members.length));
  const keyOf = new Map(members.map((member) => [member.ssrc, member.key]));
  const sentAt = new Map<number, number>();
  const latencies: number[] = [];
  let measureFrom = Infinity;
  let sentMeasured = 0;
  let received = 0;
  let verified = 0;
  let corrupt = 0;
  const listeners = members.map((receiver) => {
    const listener = (packet: Buffer): void => {
      if (packet.length < 12) return;
      const t0 = sentAt.get(packet.readUInt32BE(8) * 65_536 + packet.readUInt16BE(2));
      if (t0 === undefined || t0 < measureFrom) return;
      latencies.push(performance.now() - t0);
      received += 1;
      if (received % VERIFY_EVERY !== 0) return;
      const key = reSealed ? receiver.key : keyOf.get(packet.readUInt32BE(8));
      const opened = key && openRtpsize(VoiceEncryptionMode.aesGcm, key, packet);
      if (opened && Buffer.from(opened.plaintext).readDoubleBE(0) === t0) verified += 1;
      else corrupt += 1;
    };
    receiver.udp.on('message', listener);
    return () => receiver.udp.off('message', listener);
  });
  const idleFrom = await cpuTimeMs(pid);
  const idleAt = performance.now();
  await wait(IDLE_MS);
  const idleCpuMsPerSecond = (((await cpuTimeMs(pid)) - idleFrom) / (performance.now() - idleAt)) * 1000;
  const periodMs = 1000 / packetsPerSecond;
  const timers: NodeJS.Timeout[] = [];
  speakers.forEach((speaker, index) => {
    const start = setTimeout(
      () => {
        const send = (): void => {
          const now = performance.now();
          const { packet, seq } = mediaPacket(speaker, now);
          sentAt.set(speaker.ssrc * 65_536 + seq, now);
          if (now >= measureFrom) sentMeasured += 1;
          speaker.udp.send(packet, relayPort, '127.0.0.1');
        };
        send();
        timers.push(setInterval(send, periodMs));
      },
      (periodMs * index) / speakers.length,
    );
    timers.push(start);
  });
  await wait(warmupMs);
  const cpuBefore = await cpuTimeMs(pid);
  const measuredAt = performance.now();
  measureFrom = measuredAt;
  await wait(seconds * 1000);
  for (const timer of timers) clearInterval(timer);
  const sendingMs = performance.now() - measuredAt;
  await wait(DRAIN_MS);
  const cpu = (await cpuTimeMs(pid)) - cpuBefore;
  const netCpu = Math.max(0, cpu - (idleCpuMsPerSecond * (performance.now() - measuredAt)) / 1000);
  for (const stop of listeners) stop();
  const { p50, p99, max } = summarize(latencies);
  return {
    members: members.length,
    speakers: speakers.length,
    offeredPerSecond: (sentMeasured / sendingMs) * 1000,
    expectedForwards: sentMeasured * (members.length - 1),
    forwarded: received,
    forwardedPerSecond: (received / sendingMs) * 1000,
    cpuMs: cpu,
    idleCpuMsPerSecond,
    cpuMsPer1000: (cpu / received) * 1000,
    netCpuMsPer1000: (netCpu / received) * 1000,
    forwardedPerCoreSecond: cpu > 0 ? (received / cpu) * 1000 : Number.NaN,
    p50,
    p99,
    max,
    verified,
    corrupt,
  };
}
