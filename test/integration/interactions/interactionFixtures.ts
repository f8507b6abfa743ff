import { Client, Events, GatewayIntentBits, type Interaction } from 'discord.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, startTestServer, type TestServer } from '../../support/testServer.js';
import { guildWorld, textChannel, type GuildWorld } from '../messages/messageFixtures.js';

/** An application command as the API returns it (the fields these tests read). */
export interface ApiCommand {
  readonly id: string;
  readonly name: string;
}

/** A server with a guild, a channel, an application whose discord.js bot is in the guild, and the member's gateway. */
export interface InteractionWorld {
  readonly server: TestServer;
  readonly world: GuildWorld;
  readonly channelId: string;
  readonly applicationId: string;
  readonly bot: Client;
  /** The guild member's own gateway session (user account), for the dispatches an invoker gets. */
  readonly user: GatewayClient;
  stop(): Promise<void>;
}

/** Builds the world: registers the application and its bot, authorizes it in the guild, logs discord.js in. */
export async function interactionWorld(): Promise<InteractionWorld> {
  const server = await startTestServer();
  const world = await guildWorld(server.api);
  const channelId = await textChannel(server.api, world, 'commands');
  const app = await api<{ id: string }>(server.api, 'POST', '/applications', {
    token: world.owner.token,
    body: { name: 'Interactor' },
    expect: 201,
  });
  const botUser = await api<{ token: string }>(server.api, 'POST', `/applications/${app.id}/bot`, {
    token: world.owner.token,
  });
  await api(server.api, 'POST', `/oauth2/authorize?client_id=${app.id}&scope=bot`, {
    token: world.owner.token,
    body: { authorize: true, guild_id: world.guildId, permissions: '8' },
  });
  const bot = new Client({ intents: [GatewayIntentBits.Guilds], rest: { api: `${server.node.url}/api` } });
  const ready = new Promise<void>((resolve) => {
    bot.once(Events.ClientReady, () => {
      resolve();
    });
  });
  await bot.login(botUser.token);
  await ready;
  const { client: user } = await GatewayClient.identified(server.gatewayUrl, world.member.token);
  return {
    server,
    world,
    channelId,
    applicationId: app.id,
    bot,
    user,
    async stop() {
      await user.close();
      await bot.destroy();
      await server.stop();
    },
  };
}

/** Registers a guild command as the bot (through discord.js, as a bot would). */
export async function guildCommand(w: InteractionWorld, body: Record<string, unknown>): Promise<ApiCommand> {
  const created = await w.bot.application?.commands.create(body as never, w.world.guildId);
  if (!created) throw new Error('discord.js returned no command');
  return { id: created.id, name: created.name };
}

let nonceCounter = 0;

/** POST /interactions as the member's client sends it; resolves with the response (status asserted by callers). */
export function invoke(
  w: InteractionWorld,
  body: Record<string, unknown>,
  token = w.world.member.token,
): Promise<Response> {
  nonceCounter += 1;
  return fetch(`${w.server.api}/interactions`, {
    method: 'POST',
    headers: { authorization: token, 'content-type': 'application/json' },
    body: JSON.stringify({
      application_id: w.applicationId,
      channel_id: w.channelId,
      guild_id: w.world.guildId,
      session_id: 'test-session',
      nonce: String(1_000_000 + nonceCounter),
      ...body,
    }),
  });
}

/** The next interaction the bot receives that matches, as discord.js emits it. */
export function nextInteraction<T extends Interaction = Interaction>(
  bot: Client,
  match: (interaction: Interaction) => boolean,
  timeoutMs = 5_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      bot.off(Events.InteractionCreate, listener);
      reject(new Error(`no matching interactionCreate within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (interaction: Interaction): void => {
      if (!match(interaction)) return;
      clearTimeout(timer);
      bot.off(Events.InteractionCreate, listener);
      resolve(interaction as T);
    };
    bot.on(Events.InteractionCreate, listener);
  });
}
