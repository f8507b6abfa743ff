// Child process of discordjsVoice.test.ts: two real discord.js Clients log in to Chorus and join voice through
// their guilds' voiceAdapterCreator with the real @discordjs/voice (its own TLS, UDP, encryption and receiver).
// Its own process because NODE_EXTRA_CA_CERTS (trusting the node's self-signed voice cert) is read at start only.
// Runs one scenario and prints one JSON line: what the bots saw. It asserts nothing; the test does.
import { Readable } from 'node:stream';
import {
  EndBehaviorType,
  StreamType,
  VoiceConnectionStatus,
  createAudioPlayer,
  createAudioResource,
  entersState,
  type DiscordGatewayAdapterCreator,
} from '@discordjs/voice';
import { WAIT_MS, joinVoice, loginBot, untilMessage, untilVoiceState, type Bot, type Joined } from './djsBotKit.js';
import { decodedRms, toneFrames } from './djsTone.js';

export interface BotsArgs {
  readonly scenario: 'exchange' | 'resume' | 'move' | 'badToken' | 'lateLogin' | 'disconnected';
  readonly apiUrl: string;
  readonly guildId: string;
  readonly channelId: string;
  readonly otherChannelId: string;
  readonly tokens: readonly [string, string];
  readonly frames: number;
  readonly daveEncryption?: boolean;
  /** Start the bots with AES-GCM hidden from @discordjs/voice (djsNoAesGcm.ts), so they select XChaCha. */
  readonly xchachaOnly?: boolean;
}

const args = JSON.parse(process.argv[2] ?? '{}') as BotsArgs;

/** Asks the test process to close a user's voice sockets (server side) and waits until it did. */
async function askServerToClose(userId: string, code: number): Promise<void> {
  const done = new Promise<void>((resolve) =>
    process.once('message', () => {
      resolve();
    }),
  );
  process.send?.({ closeVoiceOf: userId, code });
  await done;
}

/** Whether a promise settles in time (a wait that timed out is a finding, not a crash). */
async function held(wait: Promise<unknown>): Promise<boolean> {
  return wait.then(
    () => true,
    () => false,
  );
}

interface Heard {
  packets: Buffer[];
  speakingStarted: boolean;
  /** Packets B had when A's voice socket was closed and when A got Resumed (resume scenario). */
  atClose?: number;
  atResumed?: number;
  resumed?: boolean;
}

/** A plays `count` tone frames; B subscribes to A and keeps what arrives until half a second of silence. */
async function playAndHear(a: Bot, ja: Joined, jb: Joined, count: number, resumeAfter?: number): Promise<Heard> {
  const heard: Heard = { packets: [], speakingStarted: false };
  jb.connection.receiver.speaking.on('start', (userId) => {
    if (userId === a.userId) heard.speakingStarted = true;
  });
  const stream = jb.connection.receiver.subscribe(a.userId, {
    end: { behavior: EndBehaviorType.AfterSilence, duration: 500 },
  });
  let resuming: Promise<void> | undefined;
  stream.on('data', (packet: Buffer) => {
    heard.packets.push(packet);
    if (resumeAfter !== undefined && heard.packets.length === resumeAfter) {
      heard.atClose = heard.packets.length;
      resuming = (async () => {
        await askServerToClose(a.userId, 4015);
        heard.resumed = await held(untilMessage(ja, 'op 9 Resumed', (m) => m.dir === '<<' && m.op === 9));
        heard.atResumed = heard.packets.length;
      })();
    }
  });
  const ended = new Promise((resolve) => stream.once('end', resolve));
  const player = createAudioPlayer();
  ja.connection.subscribe(player);
  const resource = createAudioResource(Readable.from(toneFrames(count), { objectMode: true }), {
    inputType: StreamType.Opus,
  });
  player.play(resource);
  await ended;
  await resuming;
  player.stop(true);
  return heard;
}

/** Both bots in one channel: each sees the other's voice state, A talks to B, then A leaves. */
async function exchange(a: Bot, b: Bot): Promise<Record<string, unknown>> {
  const dave = args.daveEncryption === undefined ? {} : { daveEncryption: args.daveEncryption };
  const ja = await joinVoice(a, args.channelId, { group: 'a', ...dave });
  const jb = await joinVoice(b, args.channelId, { group: 'b', ...dave });
  const bothIn = (bot: Bot): boolean =>
    [a, b].every((other) => bot.guild.voiceStates.cache.get(other.userId)?.channelId === args.channelId);
  const cachesSawBoth = await held(
    Promise.all([a, b].map((bot) => untilVoiceState(bot, 'both voice states', () => bothIn(bot)))),
  );
  const heard = await playAndHear(a, ja, jb, args.frames);
  const sent = new Set(toneFrames(args.frames).map((frame) => frame.toString('base64')));
  const intact = heard.packets.filter((packet) => sent.has(packet.toString('base64'))).length;
  const ssrcDeleted = new Promise<boolean>((resolve) => {
    jb.connection.receiver.ssrcMap.on('delete', (data) => {
      if (data.userId === a.userId) resolve(true);
    });
  });
  ja.connection.destroy();
  const clientDisconnect = await held(
    untilMessage(jb, 'op 13 for A', (m) => m.dir === '<<' && m.op === 13 && m.d?.['user_id'] === a.userId),
  );
  const sawLeave = await held(
    untilVoiceState(b, "A's voice state without a channel", () =>
      b.voiceUpdates.some((state) => state.id === a.userId && state.channelId === null),
    ),
  );
  const daveVersions = ja.messages
    .filter((m) => m.dir === '<<' && m.op === 4)
    .map((m) => m.d?.['dave_protocol_version']);
  const maxDave = ja.messages
    .filter((m) => m.dir === '>>' && m.op === 0)
    .map((m) => m.d?.['max_dave_protocol_version']);
  jb.connection.destroy();
  return {
    received: heard.packets.length,
    intact,
    rms: decodedRms(heard.packets).map(Math.round),
    speakingStarted: heard.speakingStarted,
    cachesSawBoth,
    clientDisconnect,
    ssrcDeleted: await Promise.race([ssrcDeleted, Promise.resolve(false)]),
    sawLeave,
    daveVersions,
    maxDave,
    modes: [ja, jb].map((joined) => joined.messages.find((m) => m.dir === '<<' && m.op === 4)?.d?.['mode']),
  };
}

/** A talks; mid-stream the server closes A's voice socket with 4015; A resumes and B keeps hearing it. */
async function resume(a: Bot, b: Bot): Promise<Record<string, unknown>> {
  const ja = await joinVoice(a, args.channelId, { group: 'a' });
  const jb = await joinVoice(b, args.channelId, { group: 'b' });
  const heard = await playAndHear(a, ja, jb, args.frames, 20);
  const levels = decodedRms(heard.packets).map(Math.round);
  const ops = ja.messages.map((m) => `${m.dir}${m.op}`);
  const ssrcs = ja.messages.filter((m) => m.dir === '<<' && m.op === 2).map((m) => m.d?.['ssrc']);
  ja.connection.destroy();
  jb.connection.destroy();
  return { ...heard, packets: undefined, received: heard.packets.length, rms: levels, ops, ssrcs };
}

/** A and B in one channel; B moves to another: a new token, A is told B left (op 13), B is Ready there. */
async function move(a: Bot, b: Bot): Promise<Record<string, unknown>> {
  const ja = await joinVoice(a, args.channelId, { group: 'a' });
  const jb = await joinVoice(b, args.channelId, { group: 'b' });
  const firstToken = b.voiceTokens.at(-1);
  await joinVoice(b, args.otherChannelId, { group: 'b', ready: false });
  const reidentified = await held(
    untilMessage(jb, 'a second Identify', (m) => m.dir === '>>' && m.op === 0 && m.d?.['token'] !== firstToken),
  );
  const readyAgain = await held(entersState(jb.connection, VoiceConnectionStatus.Ready, WAIT_MS));
  const clientDisconnect = await held(
    untilMessage(ja, 'op 13 for B', (m) => m.dir === '<<' && m.op === 13 && m.d?.['user_id'] === b.userId),
  );
  const aSawMove = await held(
    untilVoiceState(a, 'B in the other channel', () => {
      return a.guild.voiceStates.cache.get(b.userId)?.channelId === args.otherChannelId;
    }),
  );
  const identifyTokens = jb.messages.filter((m) => m.dir === '>>' && m.op === 0).map((m) => m.d?.['token']);
  ja.connection.destroy();
  jb.connection.destroy();
  return { tokens: b.voiceTokens, identifyTokens, reidentified, readyAgain, clientDisconnect, aSawMove };
}

/** The close codes of every voice WebSocket a connection opens from now on (its Networking's 'close'). */
function closeCodesOf(joined: Joined): { codes: number[]; first: Promise<number> } {
  const codes: number[] = [];
  const first = new Promise<number>((resolve) => {
    const watch = (networking: { on(event: 'close', listener: (code: number) => void): unknown }): void => {
      networking.on('close', (code: number) => {
        codes.push(code);
        resolve(code);
      });
    };
    const now = joined.connection.state;
    if ('networking' in now) watch(now.networking);
    joined.connection.on('stateChange', (before, after) => {
      if (!('networking' in after) || ('networking' in before && before.networking === after.networking)) return;
      watch(after.networking);
    });
  });
  return { codes, first };
}

/** B joins with a token the gateway never issued (tampered on its way to @discordjs/voice): the voice WS closes 4004. */
async function badToken(_a: Bot, b: Bot): Promise<Record<string, unknown>> {
  const tampered: DiscordGatewayAdapterCreator = (methods) =>
    b.guild.voiceAdapterCreator({
      ...methods,
      onVoiceServerUpdate: (data) => {
        methods.onVoiceServerUpdate({ ...data, token: `${data.token}x` });
      },
    });
  const jb = await joinVoice(b, args.channelId, { group: 'b', adapterCreator: tampered, ready: false });
  const { codes: closeCodes, first } = closeCodesOf(jb);
  const gotClose = await held(Promise.race([first, new Promise((_, reject) => setTimeout(reject, WAIT_MS))]));
  const reachedReady = jb.connection.state.status === VoiceConnectionStatus.Ready;
  jb.connection.destroy();
  return { gotClose, closeCodes, reachedReady };
}

/** A is in voice when a client logs in: its GUILD_CREATE (voice_states, members) puts A in the channel. */
async function lateLogin(a: Bot): Promise<Record<string, unknown>> {
  const ja = await joinVoice(a, args.channelId, { group: 'a' });
  const late = await loginBot(args.apiUrl, args.tokens[1], args.guildId);
  const state = late.guild.voiceStates.cache.get(a.userId);
  const channel = late.guild.channels.cache.get(args.channelId);
  const listed = channel?.isVoiceBased() === true ? [...channel.members.keys()] : [];
  ja.connection.destroy();
  await late.client.destroy();
  return {
    joinedChannelId: args.channelId,
    lateChannelId: state?.channelId,
    lateSessionId: state?.sessionId,
    aSessionId: ja.messages.find((m) => m.dir === '>>' && m.op === 0)?.d?.['session_id'],
    lateSelfDeaf: state?.selfDeaf,
    listed,
  };
}

/**
 * B (MOVE_MEMBERS) disconnects A through discord.js's VoiceState.disconnect() (REST, channel_id null). On Discord
 * the voice server then closes A's voice socket 4014 and tells the channel op 13; @discordjs/voice needs that
 * close to leave Ready, as it ignores a VOICE_STATE_UPDATE without a channel.
 */
async function disconnected(a: Bot, b: Bot): Promise<Record<string, unknown>> {
  const ja = await joinVoice(a, args.channelId, { group: 'a' });
  const jb = await joinVoice(b, args.channelId, { group: 'b' });
  const { codes, first } = closeCodesOf(ja);
  await b.guild.voiceStates.cache.get(a.userId)?.disconnect('test: a moderator disconnects A');
  const sawLeave = await held(
    untilVoiceState(b, "A's voice state without a channel", () =>
      b.voiceUpdates.some((state) => state.id === a.userId && state.channelId === null),
    ),
  );
  const clientDisconnect = await held(
    untilMessage(jb, 'op 13 for A', (m) => m.dir === '<<' && m.op === 13 && m.d?.['user_id'] === a.userId),
  );
  const closed = await held(Promise.race([first, new Promise((_, reject) => setTimeout(reject, 1_000))]));
  const status = ja.connection.state.status;
  ja.connection.destroy();
  jb.connection.destroy();
  return { sawLeave, clientDisconnect, closed, closeCodes: codes, status };
}

const scenarios = { exchange, resume, move, badToken, lateLogin, disconnected };
// A scenario stuck past the test's own timeout must not outlive it (discord.js would keep reconnecting).
setTimeout(() => {
  process.stderr.write('bots: scenario did not finish in 25 s\n');
  process.exit(3);
}, 25_000).unref();
const started = performance.now();
const [a, b] = await Promise.all(args.tokens.map((token) => loginBot(args.apiUrl, token, args.guildId)));
if (!a || !b) throw new Error('two bots expected');
const loggedIn = performance.now();
const result = await scenarios[args.scenario](a, b);
const loginMs = Math.round(loggedIn - started);
const scenarioMs = Math.round(performance.now() - loggedIn);
process.stdout.write(`${JSON.stringify({ ...result, loginMs, scenarioMs })}\n`);
await Promise.all([a.client.destroy(), b.client.destroy()]);
process.exit(0);
