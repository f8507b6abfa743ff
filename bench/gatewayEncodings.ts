// `npx tsx bench/gatewayEncodings.ts`: what encoding=etf and zlib-/zstd-stream cost at the gateway edge,
// on a synthetic READY plus a stream of MESSAGE_CREATE frames (the JSON text Session actors push).
// Prints ms per MB of JSON and bytes on the wire; ratios within one run are what to read (shared machine).
import { performance } from 'node:perf_hooks';
import { encodeEtf } from '../src/gateway/etf/etfEncode.js';
import { ZlibStreamEncoder } from '../src/gateway/ZlibStreamEncoder.js';
import { ZstdStreamEncoder } from '../src/gateway/ZstdStreamEncoder.js';

const DISPATCHES = Number(process.env.BENCH_DISPATCHES ?? 3_000);
const SOCKETS_FOR_MEMORY = 100;
let nextId = 1_200_000_000_000_000_000n;
const snowflake = (): string => String((nextId += 4_194_305n));

function readyFrame(): string {
  const guilds = Array.from({ length: 20 }, (_, g) => ({
    id: snowflake(),
    name: `guild ${String(g)}`,
    icon: null,
    owner_id: snowflake(),
    member_count: 400,
    version: 1_700_000_000_000 + g,
    channels: Array.from({ length: 30 }, (_, c) => ({
      id: snowflake(),
      type: 0,
      name: `channel-${String(c)}`,
      position: c,
      permission_overwrites: [],
      nsfw: false,
      topic: null,
      last_message_id: snowflake(),
    })),
    roles: [{ id: snowflake(), name: '@everyone', permissions: '1071698660929', position: 0, color: 0 }],
  }));
  const user = { id: snowflake(), username: 'bench', discriminator: '0', global_name: null, avatar: null, bot: true };
  return JSON.stringify({ op: 0, s: 1, t: 'READY', d: { v: 10, user, guilds, session_id: 'a'.repeat(32) } });
}

function messageFrame(seq: number): string {
  const author = { id: snowflake(), username: `user${String(seq % 50)}`, discriminator: '0', avatar: null };
  const d = {
    id: snowflake(),
    channel_id: snowflake(),
    guild_id: snowflake(),
    author,
    content: `message number ${String(seq)} with some ordinary chat text in it`,
    timestamp: new Date(1_700_000_000_000 + seq * 1000).toISOString(),
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    pinned: false,
    type: 0,
    flags: 0,
    nonce: String(seq),
  };
  return JSON.stringify({ op: 0, s: seq, t: 'MESSAGE_CREATE', d });
}

const frames = [readyFrame(), ...Array.from({ length: DISPATCHES }, (_, i) => messageFrame(i + 2))];
const jsonBytes = frames.reduce((sum, frame) => sum + Buffer.byteLength(frame), 0);
const mb = jsonBytes / 2 ** 20;
const rows: string[][] = [];
const row = (name: string, ms: number, bytes: number): void => {
  rows.push([name, (ms / mb).toFixed(1), String(bytes), (jsonBytes / bytes).toFixed(2)]);
};

function best(runs: number, work: () => number): { ms: number; bytes: number } {
  let ms = Infinity;
  let bytes = 0;
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now();
    bytes = work();
    ms = Math.min(ms, performance.now() - start);
  }
  return { ms, bytes };
}

async function zlibStream(payloads: (string | Buffer)[]): Promise<{ ms: number; bytes: number }> {
  let bytes = 0;
  const start = performance.now();
  const encoder = new ZlibStreamEncoder((message) => (bytes += message.length));
  for (const payload of payloads) encoder.write(payload);
  await new Promise<void>((resolve) => {
    encoder.afterPending(resolve);
  });
  encoder.close();
  return { ms: performance.now() - start, bytes };
}

function zstdStream(payloads: (string | Buffer)[]): number {
  let bytes = 0;
  const encoder = new ZstdStreamEncoder((message) => (bytes += message.length));
  for (const payload of payloads) encoder.write(payload);
  encoder.close();
  return bytes;
}

const json = best(5, () => frames.reduce((sum, frame) => sum + Buffer.byteLength(frame), 0));
row('json (text as pushed)', json.ms, jsonBytes);
const etfFrames = frames.map((frame) => encodeEtf(JSON.parse(frame)));
const etf = best(5, () => frames.reduce((sum, frame) => sum + encodeEtf(JSON.parse(frame)).length, 0));
row('etf (JSON.parse + encodeEtf)', etf.ms, etf.bytes);
const zlibJson = await zlibStream(frames);
row('json + zlib-stream', zlibJson.ms, zlibJson.bytes);
const zstdJson = best(3, () => zstdStream(frames));
row('json + zstd-stream', zstdJson.ms, zstdJson.bytes);
const zlibEtf = await zlibStream(etfFrames);
row('etf + zlib-stream (compress only)', zlibEtf.ms, zlibEtf.bytes);
const zstdEtf = best(3, () => zstdStream(etfFrames));
row('etf + zstd-stream (compress only)', zstdEtf.ms, zstdEtf.bytes);

// Native memory a zstd context holds once it has seen a READY: RSS growth over many live contexts.
const ready = frames[0] as string;
const before = process.memoryUsage().rss;
const live = Array.from({ length: SOCKETS_FOR_MEMORY }, () => {
  const encoder = new ZstdStreamEncoder(() => undefined);
  encoder.write(ready);
  return encoder;
});
const perSocketKiB = (process.memoryUsage().rss - before) / SOCKETS_FOR_MEMORY / 1024;
for (const encoder of live) encoder.close();

console.log(`${String(frames.length)} frames, ${mb.toFixed(2)} MB of JSON; node ${process.version}`);
console.log(['path', 'ms/MB', 'bytes', 'ratio'].join('\t'));
for (const cells of rows) console.log(cells.join('\t'));
console.log(`zstd context after one READY: ~${perSocketKiB.toFixed(0)} KiB RSS per socket`);
