import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { VoiceEncryptionMode, VoiceOp } from '../../../src/voice/voiceProtocol.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { createGuild, joinGuild, type TestGuild } from '../gateway/gatewayFixtures.js';
import type { VoiceServerJson, VoiceStateJson } from '../gateway/voiceFixtures.js';
import { RawVoiceClient } from './rawVoiceClient.js';

/** The voice service's Hello interval here: a member silent for twice this long is dropped. */
const HEARTBEAT_MS = 500;

/** One member in voice: its gateway session and, once connected, its voice socket. */
interface InVoice {
  readonly gateway: GatewayClient;
  readonly sessionId: string;
  readonly userId: string;
  readonly voice: RawVoiceClient;
  /** Just before its voice Identify: the voice service counts its silence from that Identify. */
  readonly identifiedAt: number;
}

describe('voice state lifecycle: a vanished voice client leaves, voice states outlive the Guild activation', () => {
  let server: TestServer;
  let owner: TestUser;
  let member: TestUser;
  let guild: TestGuild;
  let lounge: string;
  let studio: string;
  const gateways: GatewayClient[] = [];
  const voices: RawVoiceClient[] = [];
  const beats: NodeJS.Timeout[] = [];

  const createVoiceChannel = async (name: string): Promise<string> =>
    (
      await api<{ id: string }>(server.api, 'POST', `/guilds/${guild.id}/channels`, {
        token: owner.token,
        body: { name, type: 2 },
        expect: 201,
      })
    ).id;

  async function identify(token: string): Promise<{ gateway: GatewayClient; sessionId: string; userId: string }> {
    const { client, ready } = await GatewayClient.identified(server.gatewayUrl, token);
    gateways.push(client);
    return { gateway: client, sessionId: ready['session_id'] as string, userId: (ready['user'] as { id: string }).id };
  }

  const joinVoice = (gateway: GatewayClient, channelId: string | null): void => {
    gateway.send(4, { guild_id: guild.id, channel_id: channelId, self_mute: false, self_deaf: false });
  };

  /** Joins `channelId` by op 4 and identifies on the voice socket at the endpoint VOICE_SERVER_UPDATE names. */
  async function enterVoice(token: string, channelId: string, heartbeat: boolean): Promise<InVoice> {
    const { gateway, sessionId, userId } = await identify(token);
    const from = gateway.frames.length;
    joinVoice(gateway, channelId);
    const update = await gateway.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE', () => true, { from });
    const voice = await RawVoiceClient.connect(`ws://${update.d.endpoint}/?v=8`);
    voices.push(voice);
    const identifiedAt = Date.now();
    await voice.join(
      { server_id: guild.id, user_id: userId, session_id: sessionId, token: update.d.token },
      VoiceEncryptionMode.aesGcm,
    );
    // A live client heartbeats as Hello asks; a vanished one just stops.
    const beat = (): void => {
      voice.send(3, { t: Date.now(), seq_ack: voice.lastSeq });
    };
    if (heartbeat) beats.push(setInterval(beat, 100));
    return { gateway, sessionId, userId, voice, identifiedAt };
  }

  const leftVoice = (client: GatewayClient, userId: string, from: number) =>
    client.waitForDispatch<VoiceStateJson>('VOICE_STATE_UPDATE', (d) => d.user_id === userId && d.channel_id === null, {
      from,
    });

  /** The guild's voice_states as a new session's READY lists them (the Guild's GUILD_CREATE payload). */
  async function listedVoiceStates(token: string): Promise<VoiceStateJson[]> {
    const { client, ready } = await GatewayClient.identified(server.gatewayUrl, token);
    gateways.push(client);
    const guilds = ready['guilds'] as { id: string; voice_states: VoiceStateJson[] }[];
    const listed = guilds.find((candidate) => candidate.id === guild.id);
    assert.ok(listed, 'READY lists the guild');
    return listed.voice_states;
  }

  before(async () => {
    server = await startTestServer({
      CHORUS_TOKEN_SECRET: 'voice-lifecycle-test-secret',
      CHORUS_VOICE_HEARTBEAT_INTERVAL_MS: String(HEARTBEAT_MS),
    });
    owner = await registerUser(server.api, 'owner');
    member = await registerUser(server.api, 'member');
    guild = await createGuild(server.api, owner.token, 'voice lifecycle');
    await joinGuild(server.api, owner.token, guild.channelId, member.token);
    lounge = await createVoiceChannel('lounge');
    studio = await createVoiceChannel('studio');
  });
  after(async () => {
    for (const beat of beats) clearInterval(beat);
    await Promise.all(voices.map((voice) => voice.close().catch(() => undefined))); // some closed already
    await Promise.all(gateways.map((gateway) => gateway.drop()));
    await server.stop();
  });

  it('drops a voice client that stops heartbeating within the window: the guild sees it leave, its peers get op 13', async () => {
    const stays = await enterVoice(owner.token, lounge, true);
    const vanishes = await enterVoice(member.token, lounge, false);
    const from = stays.gateway.frames.length;

    const left = await leftVoice(stays.gateway, vanishes.userId, from);
    const elapsedMs = Date.now() - vanishes.identifiedAt;
    assert.equal(left.d.session_id, vanishes.sessionId);
    // Dropped once silent for the window (2 heartbeat intervals), found by a sweep that runs every quarter interval.
    assert.ok(elapsedMs >= 2 * HEARTBEAT_MS, `not before the window: left after ${elapsedMs} ms`);
    assert.ok(elapsedMs < 3 * HEARTBEAT_MS, `VOICE_STATE_UPDATE null after ${elapsedMs} ms`);
    console.log(
      `      a silent voice client left the guild ${elapsedMs} ms after its Identify (window ${2 * HEARTBEAT_MS} ms)`,
    );
    const disconnect = await stays.voice.nextOf(VoiceOp.clientDisconnect);
    assert.deepEqual(disconnect.d, { user_id: vanishes.userId });
    assert.equal((await vanishes.voice.closed).code, 4009);
    // Its own session is told too: it did not ask to leave.
    await leftVoice(vanishes.gateway, vanishes.userId, 0);
    const listed = await listedVoiceStates(owner.token);
    assert.deepEqual(
      listed.map((state) => state.user_id),
      [stays.userId],
    );
    joinVoice(stays.gateway, null);
    await leftVoice(stays.gateway, stays.userId, from);
  });

  it('a client closing its voice socket normally leaves at once; a stale drop after a move keeps the new channel', async () => {
    const stays = await enterVoice(owner.token, lounge, true);
    const closes = await enterVoice(member.token, lounge, true);
    let from = stays.gateway.frames.length;
    await closes.voice.close(); // 1000: the client is done with voice
    await leftVoice(stays.gateway, closes.userId, from);
    assert.deepEqual((await stays.voice.nextOf(VoiceOp.clientDisconnect)).d, { user_id: closes.userId });

    // The member joins the lounge, then moves to the studio by op 4 before its lounge voice client goes silent.
    const moves = await enterVoice(member.token, lounge, false);
    from = stays.gateway.frames.length;
    joinVoice(moves.gateway, studio);
    await stays.gateway.waitForDispatch<VoiceStateJson>(
      'VOICE_STATE_UPDATE',
      (d) => d.user_id === moves.userId && d.channel_id === studio,
      { from },
    );
    // The Guild tells the lounge's voice room the member is gone: that media session ends (4014, op 13 to the
    // lounge) as a leave, not a drop, so no stale drop reaches the Guild (one racing the move would name the lounge).
    assert.deepEqual((await stays.voice.nextOf(VoiceOp.clientDisconnect)).d, { user_id: moves.userId });
    assert.equal((await moves.voice.closed).code, 4014);
    const listed = await listedVoiceStates(owner.token);
    const moved = listed.find((state) => state.user_id === moves.userId);
    assert.equal(moved?.channel_id, studio, 'the member is still in the studio');
    assert.equal(moved.session_id, moves.sessionId);
    const leftSinceMove = stays.gateway
      .dispatches<VoiceStateJson>('VOICE_STATE_UPDATE')
      .filter((frame) => stays.gateway.frames.indexOf(frame) >= from)
      .filter((frame) => frame.d.user_id === moves.userId && frame.d.channel_id === null);
    assert.deepEqual(leftSinceMove, [], 'no one was told the member left after its move');
    for (const client of [stays.gateway, moves.gateway]) joinVoice(client, null);
    await leftVoice(stays.gateway, moves.userId, from);
  });

  it('keeps voice states across a Guild re-activation: READY lists them, and a session ending still leaves', async () => {
    const first = await identify(owner.token);
    const second = await identify(member.token);
    joinVoice(first.gateway, lounge);
    joinVoice(second.gateway, studio);
    for (const [who, channelId] of [
      [first, lounge],
      [second, studio],
    ] as const) {
      await first.gateway.waitForDispatch<VoiceStateJson>(
        'VOICE_STATE_UPDATE',
        (d) => d.user_id === who.userId && d.channel_id === channelId,
      );
    }

    assert.ok(server.node.host.evict('guild', guild.id), 'the Guild actor was active and is evicted');
    const listed = await listedVoiceStates(owner.token);
    assert.ok(server.node.host.isActive('guild', guild.id), "READY's guild came from a new activation");
    const byUser = new Map(listed.map((state) => [state.user_id, state]));
    assert.deepEqual(
      [...byUser.keys()].sort(),
      [first.userId, second.userId].sort(),
      'both members are listed after the re-activation',
    );
    assert.equal(byUser.get(first.userId)?.channel_id, lounge);
    assert.equal(byUser.get(first.userId)?.session_id, first.sessionId);
    assert.equal(byUser.get(second.userId)?.channel_id, studio);

    // The restored state still ends with its session (op 1000 close ends it at once).
    const from = first.gateway.frames.length;
    await second.gateway.close(1000);
    await leftVoice(first.gateway, second.userId, from);
    joinVoice(first.gateway, null);
    await leftVoice(first.gateway, first.userId, from);
  });
});
