import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { addMembers, createWorld } from './chorusSetup.js';
import { startChorus } from './processes.js';
import { runVoiceLoad, type VoiceLoadOptions, type VoiceRun } from './voiceLoad.js';
import { joinVoice, type LoadMember } from './voiceMember.js';

/** The voice section's settings (issue 13 §7): channel sizes, speakers among them, their rate and the window. */
export interface VoiceBenchOptions {
  readonly sizes: readonly number[];
  readonly speakers: number;
  readonly packetsPerSecond: number;
  readonly seconds: number;
  readonly warmupMs: number;
  /** HTTP port of the section's own Chorus node (its voice port is 10,000 above, as the other benches). */
  readonly port: number;
}

/** One channel size: Chorus and the two bare relays under the same load. */
export interface VoiceRow {
  readonly members: number;
  readonly chorus: VoiceRun;
  readonly bare: VoiceRun;
  readonly bareAead: VoiceRun;
}

const ROOT = new URL('..', import.meta.url).pathname;

/** A bare relay process (bench/voiceBareRelay.ts) and the port it listens on. */
async function startBareRelay(mode: 'plain' | 'aead'): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/voiceBareRelay.ts', mode], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const [line] = (await once(lines, 'line')) as [string];
  return { child, port: (JSON.parse(line) as { port: number }).port };
}

/** `count` members of a bare relay: fresh UDP sockets with random keys, joined after a reset. */
async function bareMembers(port: number, count: number): Promise<LoadMember[]> {
  const members: LoadMember[] = [];
  const control = createSocket('udp4');
  control.bind(0, '127.0.0.1');
  await once(control, 'listening');
  const reset = once(control, 'message');
  control.send(Buffer.from('RSET'), port, '127.0.0.1');
  await reset;
  control.close();
  for (let index = 0; index < count; index += 1) {
    const udp = createSocket('udp4');
    udp.bind(0, '127.0.0.1');
    await once(udp, 'listening');
    const ssrc = 1000 + index;
    const key = randomBytes(32);
    const join = Buffer.alloc(8);
    join.write('JOIN', 0, 'latin1');
    join.writeUInt32BE(ssrc, 4);
    const joined = once(udp, 'message');
    udp.send(Buffer.concat([join, key]), port, '127.0.0.1');
    await joined;
    members.push({ udp, ssrc, key, close: () => udp.close() });
  }
  return members;
}

async function createVoiceChannel(baseUrl: string, token: string, guildId: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v10/guilds/${guildId}/channels`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: token },
    body: JSON.stringify({ name: 'bench-voice', type: 2 }),
  });
  if (!response.ok) throw new Error(`voice channel: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/**
 * The voice section: a Chorus node with the largest channel's users in one guild; for each size, members join its
 * voice channel through the gateway and the voice WebSocket (those of the smaller size stay), then the same load
 * runs against Chorus, the bare plain relay and the bare AES-GCM relay, one after another.
 */
export async function voiceSection(options: VoiceBenchOptions): Promise<VoiceRow[]> {
  const largest = Math.max(...options.sizes);
  const chorus = await startChorus(options.port);
  const plain = await startBareRelay('plain');
  const aead = await startBareRelay('aead');
  const joined: LoadMember[] = [];
  const rows: VoiceRow[] = [];
  try {
    const world = await createWorld(chorus.baseUrl, 1);
    const users = [world.owner, ...(await addMembers(chorus.baseUrl, world, largest - 1))];
    const channelId = await createVoiceChannel(chorus.baseUrl, world.owner.token, world.guildId);
    const gatewayUrl = `${chorus.baseUrl.replace(/^http/, 'ws')}/?v=10&encoding=json`;
    let voicePort = 0;
    for (const size of [...options.sizes].sort((a, b) => a - b)) {
      // The newcomers join together, as a channel filling up at once would; their order stays the users' order.
      const newcomers = users.slice(joined.length, size);
      const joins = await Promise.all(
        newcomers.map((user) => joinVoice(gatewayUrl, user.token, world.guildId, channelId)),
      );
      for (const { member, mediaPort } of joins) {
        joined.push(member);
        voicePort = mediaPort;
      }
      const load = (members: LoadMember[], relayPort: number, pid: number, reSealed: boolean): VoiceLoadOptions => ({
        ...options,
        members,
        relayPort,
        pid,
        reSealed,
      });
      const chorusRun = await runVoiceLoad(load(joined, voicePort, chorus.pid, true));
      const plainMembers = await bareMembers(plain.port, size);
      const bare = await runVoiceLoad(load(plainMembers, plain.port, plain.child.pid ?? 0, false));
      for (const member of plainMembers) member.close();
      const aeadMembers = await bareMembers(aead.port, size);
      const bareAead = await runVoiceLoad(load(aeadMembers, aead.port, aead.child.pid ?? 0, true));
      for (const member of aeadMembers) member.close();
      const row = { members: size, chorus: chorusRun, bare, bareAead };
      console.log(voiceLines(row));
      rows.push(row);
    }
  } finally {
    for (const member of joined) member.close();
    plain.child.kill('SIGTERM');
    aead.child.kill('SIGTERM');
    await chorus.stop();
  }
  return rows;
}

const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** The section's header, as printed by `npm run bench`. */
export function voiceHeader(options: VoiceBenchOptions): string {
  return (
    `\nVoice media: ${options.speakers} speaker(s) per channel (fewer when the channel is smaller), each a ${options.packetsPerSecond}/s` +
    ` stream of 120-byte AES-GCM rtpsize frames, ${options.seconds} s measured after ${options.warmupMs} ms warm-up; loopback,` +
    ' one host shared with other work: only same-run ratios mean anything' +
    '\n  forwarded/s (received/expected) | per core-second (forwarded per CPU-second of the relay process)' +
    ' | CPU ms per 1,000 forwarded (less the idle rate measured before) | send-to-receive latency p50/p99 ms'
  );
}

/** One channel size: Chorus beside both bare relays, and the ratios. */
export function voiceLines(row: VoiceRow): string {
  const line = (name: string, run: VoiceRun): string =>
    `  ${name} | ${fmt(run.forwardedPerSecond, 0)}/s (${run.forwarded}/${run.expectedForwards}) | ${fmt(run.forwardedPerCoreSecond, 0)}/core-s` +
    ` | ${fmt(run.cpuMsPer1000, 2)} ms/1k (${fmt(run.netCpuMsPer1000, 2)}) | p50 ${fmt(run.p50, 3)} p99 ${fmt(run.p99, 3)} (max ${fmt(run.max, 1)})` +
    (run.corrupt > 0 ? ` | ${run.corrupt} CORRUPT of ${run.verified + run.corrupt} checked` : '');
  const { chorus, bare, bareAead } = row;
  return (
    `\n${row.members} members, ${chorus.speakers} speaking (${fmt(chorus.offeredPerSecond, 0)} packets/s in):` +
    `\n${line('chorus          ', chorus)}\n${line('bare UDP relay  ', bare)}\n${line('bare + AES-GCM  ', bareAead)}` +
    `\n  chorus vs bare: CPU per packet ${fmt(chorus.cpuMsPer1000 / bare.cpuMsPer1000, 1)}x` +
    ` (vs AES-GCM relay ${fmt(chorus.cpuMsPer1000 / bareAead.cpuMsPer1000, 1)}x)` +
    ` | added latency p50 ${fmt(chorus.p50 - bare.p50, 3)} ms p99 ${fmt(chorus.p99 - bare.p99, 3)} ms` +
    ` (vs AES-GCM relay p50 ${fmt(chorus.p50 - bareAead.p50, 3)} p99 ${fmt(chorus.p99 - bareAead.p99, 3)})`
  );
}

/** The section with its settings from the environment (BENCH_VOICE_*), printed as it runs. */
export async function voiceBench(port: number): Promise<{ options: VoiceBenchOptions; rows: VoiceRow[] }> {
  const env = process.env;
  const options: VoiceBenchOptions = {
    sizes: (env.BENCH_VOICE_SIZES ?? '2,10,25').split(',').map(Number),
    speakers: Number(env.BENCH_VOICE_SPEAKERS ?? 3),
    packetsPerSecond: Number(env.BENCH_VOICE_PPS ?? 50), // one opus frame each 20 ms
    seconds: Number(env.BENCH_VOICE_SECONDS ?? 2.5),
    warmupMs: 400,
    port,
  };
  console.log(voiceHeader(options));
  const startedAt = Date.now();
  const rows = await voiceSection(options);
  console.log(`  (voice section: ${((Date.now() - startedAt) / 1000).toFixed(1)} s, node start and joins included)`);
  return { options, rows };
}
