// Building blocks of the discord.js voice bots (child process side): a logged-in discord.js Client and a voice
// connection joined through its guild's own voiceAdapterCreator, with the voice gateway messages it saw.
import { once } from 'node:events';
import {
  VoiceConnectionStatus,
  entersState,
  joinVoiceChannel,
  type DiscordGatewayAdapterCreator,
  type VoiceConnection,
} from '@discordjs/voice';
import { Client, Events, GatewayIntentBits, type Guild, type VoiceState } from 'discord.js';

/** CHORUS_DJS_DEBUG=1: the clients' gateway and voice debug output goes to stderr (shown by the test). */
const TRACE = Boolean(process.env['CHORUS_DJS_DEBUG']);

/** How long any awaited voice event may take before the scenario fails. */
export const WAIT_MS = 10_000;

/** A voice gateway message as @discordjs/voice's debug output shows it (`<<` received, `>>` sent). */
export interface VoiceWsMessage {
  readonly dir: '<<' | '>>';
  readonly op: number;
  readonly d: Record<string, unknown> | null;
}

/** One discord.js bot: its client, its user id and its view of the test guild. */
export interface Bot {
  readonly client: Client;
  readonly userId: string;
  readonly guild: Guild;
  /** Every voiceStateUpdate discord.js emitted (its new state). */
  readonly voiceUpdates: VoiceState[];
  /** Every VOICE_SERVER_UPDATE token the gateway gave this bot. */
  readonly voiceTokens: string[];
}

/** Logs a discord.js Client in against Chorus (REST base `apiUrl`, gateway found through /gateway/bot). */
export async function loginBot(apiUrl: string, token: string, guildId: string): Promise<Bot> {
  const client = new Client({
    intents: [GatewayIntentBits.Guilds, GatewayIntentBits.GuildVoiceStates],
    rest: { api: apiUrl },
  });
  const voiceUpdates: VoiceState[] = [];
  const voiceTokens: string[] = [];
  client.on(Events.VoiceStateUpdate, (_old, state) => voiceUpdates.push(state));
  client.on(Events.Raw, (packet: { t?: string; d?: { token?: string } }) => {
    if (packet.t === 'VOICE_SERVER_UPDATE' && typeof packet.d?.token === 'string') voiceTokens.push(packet.d.token);
  });
  if (TRACE) client.on(Events.Debug, (line) => process.stderr.write(`[client] ${line}\n`));
  const ready = once(client, Events.ClientReady);
  await client.login(token);
  await ready;
  const guild = client.guilds.cache.get(guildId);
  if (!guild || !client.user) throw new Error(`bot did not see guild ${guildId} in READY/GUILD_CREATE`);
  return { client, userId: client.user.id, guild, voiceUpdates, voiceTokens };
}

/** A bot's voice connection and the voice gateway messages it sent and received. */
export interface Joined {
  readonly connection: VoiceConnection;
  readonly messages: VoiceWsMessage[];
}

/** Records the JSON voice gateway messages of a connection created with `debug: true`. */
export function recordMessages(connection: VoiceConnection): VoiceWsMessage[] {
  const messages: VoiceWsMessage[] = [];
  connection.on('debug', (line: string) => {
    const match = /\[WS\] (<<|>>) (\{.*\})$/s.exec(line);
    if (!match?.[2]) return;
    const parsed = JSON.parse(match[2]) as { op: number; d: Record<string, unknown> | null };
    messages.push({ dir: match[1] as '<<' | '>>', op: parsed.op, d: parsed.d });
  });
  return messages;
}

export interface JoinOptions {
  readonly group: string;
  readonly daveEncryption?: boolean;
  /** An adapter in place of the guild's own (to tamper with what it hands over). */
  readonly adapterCreator?: DiscordGatewayAdapterCreator;
  /** Whether to wait for Ready (a refused join never gets there). */
  readonly ready?: boolean;
}

/** joinVoiceChannel through the bot's guild, as a discord.js bot does, and waits for Ready. */
export async function joinVoice(bot: Bot, channelId: string, options: JoinOptions): Promise<Joined> {
  const connection = joinVoiceChannel({
    guildId: bot.guild.id,
    channelId,
    adapterCreator: options.adapterCreator ?? bot.guild.voiceAdapterCreator,
    selfDeaf: false,
    group: options.group,
    debug: true,
    ...(options.daveEncryption === undefined ? {} : { daveEncryption: options.daveEncryption }),
  });
  const messages = recordMessages(connection);
  if (TRACE) connection.on('debug', (line) => process.stderr.write(`[${options.group}] ${line}\n`));
  if (options.ready !== false) await entersState(connection, VoiceConnectionStatus.Ready, WAIT_MS);
  return { connection, messages };
}

/** Resolves when `check` holds, re-checking on each voiceStateUpdate of the bot; rejects after WAIT_MS. */
export async function untilVoiceState(bot: Bot, what: string, check: () => boolean): Promise<void> {
  if (check()) return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      bot.client.off(Events.VoiceStateUpdate, listener);
      reject(new Error(`timed out waiting for ${what}`));
    }, WAIT_MS);
    const listener = (): void => {
      if (!check()) return;
      clearTimeout(timer);
      bot.client.off(Events.VoiceStateUpdate, listener);
      resolve();
    };
    bot.client.on(Events.VoiceStateUpdate, listener);
  });
}

/** Resolves with the first recorded message matching, waiting on the connection's debug output; rejects after WAIT_MS. */
export async function untilMessage(
  joined: Joined,
  what: string,
  match: (message: VoiceWsMessage) => boolean,
): Promise<VoiceWsMessage> {
  const found = joined.messages.find(match);
  if (found) return found;
  return new Promise<VoiceWsMessage>((resolve, reject) => {
    const timer = setTimeout(() => {
      joined.connection.off('debug', listener);
      reject(new Error(`timed out waiting for ${what}`));
    }, WAIT_MS);
    const listener = (): void => {
      const hit = joined.messages.find(match);
      if (!hit) return;
      clearTimeout(timer);
      joined.connection.off('debug', listener);
      resolve(hit);
    };
    // Registered after recordMessages' own listener, so the message is recorded by the time this runs.
    joined.connection.on('debug', listener);
  });
}
