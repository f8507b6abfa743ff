import { GatewayClient, type GatewayFrame } from '../../support/GatewayClient.js';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { createGuild, joinGuild, type TestGuild } from './gatewayFixtures.js';

/** The token secret the voice tests' server signs with, so they can verify voice tokens. */
export const VOICE_TEST_SECRET = 'voice-states-test-secret';

/** A voice state as VOICE_STATE_UPDATE carries it. */
export interface VoiceStateJson {
  guild_id: string;
  channel_id: string | null;
  user_id: string;
  session_id: string;
  member?: { user: { id: string } };
  mute: boolean;
  deaf: boolean;
  self_mute: boolean;
  self_deaf: boolean;
  self_video: boolean;
  self_stream: boolean;
  suppress: boolean;
  request_to_speak_timestamp: string | null;
}

/** VOICE_SERVER_UPDATE's data. */
export interface VoiceServerJson {
  token: string;
  guild_id: string;
  endpoint: string;
}

/** A server with a guild of two users (the owner and a member), and the sockets a test opened. */
export class VoiceWorld {
  readonly open: GatewayClient[] = [];

  private constructor(
    readonly server: TestServer,
    readonly owner: TestUser,
    readonly member: TestUser,
    readonly guild: TestGuild,
  ) {}

  static async start(): Promise<VoiceWorld> {
    const server = await startTestServer({ CHORUS_TOKEN_SECRET: VOICE_TEST_SECRET });
    const owner = await registerUser(server.api, 'owner');
    const member = await registerUser(server.api, 'member');
    const guild = await createGuild(server.api, owner.token, 'voice');
    await joinGuild(server.api, owner.token, guild.channelId, member.token);
    return new VoiceWorld(server, owner, member, guild);
  }

  /** Identifies `token` (with `intents` when given); the client, its session id and READY. */
  async connect(
    token: string,
    intents?: number,
  ): Promise<{ client: GatewayClient; sessionId: string; ready: Record<string, unknown> }> {
    const extra = intents === undefined ? {} : { intents };
    const { client, ready } = await GatewayClient.identified(this.server.gatewayUrl, token, extra);
    this.open.push(client);
    return { client, sessionId: ready['session_id'] as string, ready };
  }

  /**
   * Sends op 4 as @discordjs/voice does (self_deaf by default); a null channel leaves. A member that must hear
   * media passes `selfDeaf` false: the voice service sends a deafened member none.
   */
  joinVoice(client: GatewayClient, channelId: string | null, selfDeaf = true): void {
    client.send(4, { guild_id: this.guild.id, channel_id: channelId, self_mute: false, self_deaf: selfDeaf });
  }

  /** The first VOICE_STATE_UPDATE (from frame `from`) that matches. */
  stateOf(
    client: GatewayClient,
    match: (d: VoiceStateJson) => boolean,
    from = 0,
  ): Promise<GatewayFrame<VoiceStateJson>> {
    return client.waitForDispatch<VoiceStateJson>('VOICE_STATE_UPDATE', match, { from });
  }

  /** Creates a voice channel (type 2 unless `body` says otherwise) as the owner. */
  async createVoiceChannel(name: string, body: Record<string, unknown> = {}): Promise<string> {
    const path = `/guilds/${this.guild.id}/channels`;
    const created = await api<{ id: string }>(this.server.api, 'POST', path, {
      token: this.owner.token,
      body: { name, type: 2, ...body },
      expect: 201,
    });
    return created.id;
  }

  async stop(): Promise<void> {
    await Promise.all(this.open.map((client) => client.drop()));
    await this.server.stop();
  }
}
