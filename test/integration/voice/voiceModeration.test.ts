import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { VoiceEncryptionMode, VoiceOp } from '../../../src/voice/voiceProtocol.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, registerUser, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { until } from '../../support/clusterNode.js';
import { createGuild, joinGuild, type TestGuild } from '../gateway/gatewayFixtures.js';
import type { VoiceServerJson, VoiceStateJson } from '../gateway/voiceFixtures.js';
import { RawVoiceClient } from './rawVoiceClient.js';

/** One member in a voice channel: its gateway session and its voice socket (raw client). */
interface InVoice {
  readonly gateway: GatewayClient;
  readonly sessionId: string;
  readonly userId: string;
  readonly voice: RawVoiceClient;
}

/** Payloads told apart by their first byte: what was sent while the Guild's decision held, and after. */
const DURING = 0x11;
const AFTER = 0x22;
/** Permission bits (Discord's): CONNECT and SPEAK. */
const CONNECT = 1 << 20;
const SPEAK = 1 << 21;
const payload = (kind: number, index: number): Buffer => Buffer.from([kind, index, 0xf8, 0xff, 0xfe]);

/**
 * Issue 13 §1 enforcement: the Guild tells the channel's voice room (`voice:<channel id>`) each member's voice
 * state, and the voice service acts on it: a member the Guild removed is closed 4014, a deafened one hears
 * nothing, a server-muted one is heard by nobody.
 */
describe('the voice service enforces what the Guild decides (moderation, deafen, mute)', function () {
  this.timeout(20_000);
  let server: TestServer;
  let owner: TestUser;
  let guild: TestGuild;
  const users: TestUser[] = [];
  const gateways: GatewayClient[] = [];
  const voices: RawVoiceClient[] = [];

  const voicePort = (): number => Number(server.node.voice?.port);

  const createVoiceChannel = async (name: string): Promise<string> =>
    (
      await api<{ id: string }>(server.api, 'POST', `/guilds/${guild.id}/channels`, {
        token: owner.token,
        body: { name, type: 2 },
        expect: 201,
      })
    ).id;

  const patchMember = (token: string, userId: string, body: Record<string, unknown>, expect = 200) =>
    api<Record<string, unknown>>(server.api, 'PATCH', `/guilds/${guild.id}/members/${userId}`, {
      token,
      body,
      expect,
    });

  const joinVoice = (gateway: GatewayClient, channelId: string | null, selfDeaf = false): void => {
    gateway.send(4, { guild_id: guild.id, channel_id: channelId, self_mute: false, self_deaf: selfDeaf });
  };

  /** Identifies a gateway session for `user` and joins `channelId` by op 4; VOICE_SERVER_UPDATE's data. */
  async function joinChannel(
    user: TestUser,
    channelId: string,
  ): Promise<{ gateway: GatewayClient; sessionId: string; update: VoiceServerJson }> {
    const { client, ready } = await GatewayClient.identified(server.gatewayUrl, user.token);
    gateways.push(client);
    const from = client.frames.length;
    joinVoice(client, channelId);
    const update = await client.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE', () => true, { from });
    return { gateway: client, sessionId: ready['session_id'] as string, update: update.d };
  }

  /** Identifies on the voice socket VOICE_SERVER_UPDATE named, with its token. */
  async function connectVoice(user: TestUser, sessionId: string, update: VoiceServerJson): Promise<RawVoiceClient> {
    const voice = await RawVoiceClient.connect(`ws://${update.endpoint}/?v=8`);
    voices.push(voice);
    await voice.join(
      { server_id: guild.id, user_id: user.id, session_id: sessionId, token: update.token },
      VoiceEncryptionMode.aesGcm,
    );
    return voice;
  }

  async function enterVoice(user: TestUser, channelId: string): Promise<InVoice> {
    const { gateway, sessionId, update } = await joinChannel(user, channelId);
    return { gateway, sessionId, userId: user.id, voice: await connectVoice(user, sessionId, update) };
  }

  const stateOf = (client: GatewayClient, match: (d: VoiceStateJson) => boolean, from = 0) =>
    client.waitForDispatch<VoiceStateJson>('VOICE_STATE_UPDATE', match, { from });

  /**
   * Sends AFTER packets from `sender` until `receiver` gets a packet (the Guild's change reaches the voice room by
   * a tell, so the first may beat it); the first packet the receiver got at all.
   */
  async function firstHeard(
    sender: RawVoiceClient,
    receiver: RawVoiceClient,
  ): Promise<{ ssrc: number; payload: Buffer }> {
    let index = 0;
    const heard = receiver.receiveAudio();
    let done = false;
    void heard.finally(() => (done = true));
    while (!done) {
      sender.sendAudio(payload(AFTER, index++), voicePort());
      await Promise.race([heard, new Promise((resolve) => setTimeout(resolve, 25))]);
    }
    return heard;
  }

  before(async () => {
    server = await startTestServer({ CHORUS_TOKEN_SECRET: 'voice-moderation-test-secret' });
    owner = await registerUser(server.api, 'owner');
    guild = await createGuild(server.api, owner.token, 'voice moderation');
    for (const name of ['anna', 'bert', 'cleo', 'kit']) {
      const user = await registerUser(server.api, name);
      await joinGuild(server.api, owner.token, guild.channelId, user.token);
      users.push(user);
    }
  });
  after(async () => {
    await Promise.all(voices.map((voice) => voice.close().catch(() => undefined)));
    await Promise.all(gateways.map((gateway) => gateway.drop()));
    await server.stop();
  });

  it('a server-deafened member gets no packets while the other does, and hears again once undeafened', async () => {
    const [anna, bert, cleo] = users as [TestUser, TestUser, TestUser];
    const room = await createVoiceChannel('deafened');
    const a = await enterVoice(anna, room);
    const c = await enterVoice(cleo, room);
    // Bert is deafened between joining the channel and identifying on the voice socket: the room applies the
    // state it was told once he identifies.
    const joined = await joinChannel(bert, room);
    const from = a.gateway.frames.length;
    await patchMember(owner.token, bert.id, { deaf: true });
    await stateOf(a.gateway, (d) => d.user_id === bert.id && d.deaf, from);
    const b = await connectVoice(bert, joined.sessionId, joined.update);

    const forwardedBefore = server.node.voice?.stats.forwarded ?? 0;
    for (let index = 0; index < 20; index++) a.voice.sendAudio(payload(DURING, index), voicePort());
    for (let index = 0; index < 20; index++) {
      const got = await c.voice.receiveAudio();
      assert.deepEqual(got, { ssrc: a.voice.ssrc, payload: payload(DURING, index) }, 'Cleo hears every packet');
    }
    assert.equal((server.node.voice?.stats.forwarded ?? 0) - forwardedBefore, 20, 'forwarded to Cleo only');

    await patchMember(owner.token, bert.id, { deaf: false });
    const first = await firstHeard(a.voice, b);
    assert.equal(first.payload[0], AFTER, 'the first packet Bert got was sent after he was undeafened');
    for (const gateway of [a.gateway, joined.gateway, c.gateway]) joinVoice(gateway, null);
  });

  it("a server-muted member's packets reach nobody (counted as dropped) until unmuted", async () => {
    const [anna, bert, cleo] = users as [TestUser, TestUser, TestUser];
    const room = await createVoiceChannel('muted');
    const a = await enterVoice(anna, room);
    const b = await enterVoice(bert, room);
    const c = await enterVoice(cleo, room);
    const from = b.gateway.frames.length;
    await patchMember(owner.token, anna.id, { mute: true });
    await stateOf(b.gateway, (d) => d.user_id === anna.id && d.mute, from);

    const stats = server.node.voice?.stats;
    assert.ok(stats, 'the node runs voice');
    const droppedBefore = stats.dropped;
    for (let index = 0; index < 20; index++) a.voice.sendAudio(payload(DURING, index), voicePort());
    await until('the muted packets dropped', () => Promise.resolve(stats.dropped - droppedBefore >= 20 || undefined), {
      timeoutMs: 5_000,
      everyMs: 10,
    });
    // Bert still speaks to the room: Cleo's first packet is his, none of Anna's came before it.
    const fromBert = await firstHeard(b.voice, c.voice);
    assert.equal(fromBert.ssrc, b.voice.ssrc, "Cleo's first packet is Bert's");
    assert.equal((await a.voice.receiveAudio()).ssrc, b.voice.ssrc, 'the muted member still hears');

    await patchMember(owner.token, anna.id, { mute: false });
    const heard = await firstHeard(a.voice, b.voice);
    assert.deepEqual([heard.ssrc, heard.payload[0]], [a.voice.ssrc, AFTER], 'Anna is heard once unmuted');
    for (const gateway of [a.gateway, b.gateway, c.gateway]) joinVoice(gateway, null);
  });

  it('a self-deafened member (op 4 self_deaf) receives nothing until it undeafens by op 4', async () => {
    const [anna, bert] = users as [TestUser, TestUser];
    const room = await createVoiceChannel('self-deafened');
    const a = await enterVoice(anna, room);
    const b = await enterVoice(bert, room);
    const from = a.gateway.frames.length;
    joinVoice(b.gateway, room, true);
    await stateOf(a.gateway, (d) => d.user_id === bert.id && d.self_deaf, from);
    for (let index = 0; index < 10; index++) a.voice.sendAudio(payload(DURING, index), voicePort());
    // Anna hears Bert meanwhile; her packets, sent first, were handled before his first one reached her.
    assert.equal((await firstHeard(b.voice, a.voice)).ssrc, b.voice.ssrc);

    joinVoice(b.gateway, room, false);
    const first = await firstHeard(a.voice, b.voice);
    assert.equal(first.payload[0], AFTER, 'the first packet Bert got was sent after he undeafened');
    for (const gateway of [a.gateway, b.gateway]) joinVoice(gateway, null);
  });

  it('a member moved by a moderator is closed 4014 in the old room, which hears op 13; the new room keeps it', async () => {
    const [anna, bert] = users as [TestUser, TestUser];
    const lounge = await createVoiceChannel('lounge');
    const studio = await createVoiceChannel('studio');
    const a = await enterVoice(anna, lounge);
    const b = await enterVoice(bert, lounge);

    // Without MOVE_MEMBERS Anna may not disconnect Bert: 403 50013, and his voice socket stays open.
    const denied = await patchMember(anna.token, bert.id, { channel_id: null }, 403);
    assert.equal(denied['code'], 50013);

    const from = b.gateway.frames.length;
    const movedAt = performance.now();
    await patchMember(owner.token, bert.id, { channel_id: studio });
    assert.equal((await b.voice.closed).code, 4014, "Bert's lounge voice socket closed 4014 (Disconnected)");
    console.log(
      `      PATCH channel_id sent to the old voice socket closing 4014: ${(performance.now() - movedAt).toFixed(1)} ms`,
    );
    assert.deepEqual((await a.voice.nextOf(VoiceOp.clientDisconnect)).d, { user_id: bert.id });

    // His session is told to connect to the studio; that media session is his and is not closed.
    const moved = await b.gateway.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE', () => true, { from });
    const inStudio = await connectVoice(bert, b.sessionId, moved.d);
    inStudio.send(3, { t: 1234, seq_ack: inStudio.lastSeq });
    assert.deepEqual((await inStudio.nextOf(VoiceOp.heartbeatAck)).d, { t: 1234 });
    for (const gateway of [a.gateway, b.gateway]) joinVoice(gateway, null);
    assert.equal((await inStudio.closed).code, 4014, 'leaving the studio ends that media session too');
  });

  it('a member denied SPEAK by an overwrite is suppressed and heard by nobody; denied CONNECT, it is closed 4014', async () => {
    const [anna, bert] = users as [TestUser, TestUser];
    const room = await createVoiceChannel('overwritten');
    const a = await enterVoice(anna, room);
    const b = await enterVoice(bert, room);
    const deny = (permission: number) =>
      api(server.api, 'PUT', `/channels/${room}/permissions/${anna.id}`, {
        token: owner.token,
        body: { type: 1, allow: '0', deny: String(permission) },
        expect: 204,
      });
    const from = b.gateway.frames.length;
    await deny(SPEAK);
    await stateOf(b.gateway, (d) => d.user_id === anna.id && d.suppress, from);
    const stats = server.node.voice?.stats;
    assert.ok(stats, 'the node runs voice');
    const droppedBefore = stats.dropped;
    for (let index = 0; index < 10; index++) a.voice.sendAudio(payload(DURING, index), voicePort());
    await until(
      'the suppressed packets dropped',
      () => Promise.resolve(stats.dropped - droppedBefore >= 10 || undefined),
      {
        timeoutMs: 5_000,
        everyMs: 10,
      },
    );
    assert.equal((await firstHeard(b.voice, a.voice)).ssrc, b.voice.ssrc, 'a suppressed member still hears');

    await deny(CONNECT);
    assert.equal((await a.voice.closed).code, 4014, 'losing CONNECT disconnects');
    assert.deepEqual((await b.voice.nextOf(VoiceOp.clientDisconnect)).d, { user_id: anna.id });
    await stateOf(b.gateway, (d) => d.user_id === anna.id && d.channel_id === null, from);
    joinVoice(b.gateway, null);
  });

  it('deleting the voice channel closes its members 4014; a kicked member is closed 4014 and the room hears op 13', async () => {
    const [anna, bert, , kit] = users as [TestUser, TestUser, TestUser, TestUser];
    const doomed = await createVoiceChannel('doomed');
    const a = await enterVoice(anna, doomed);
    const b = await enterVoice(bert, doomed);
    await api(server.api, 'DELETE', `/channels/${doomed}`, { token: owner.token, expect: 200 });
    for (const closed of await Promise.all([a.voice.closed, b.voice.closed])) assert.equal(closed.code, 4014);

    const hall = await createVoiceChannel('hall');
    const stays = await enterVoice(anna, hall);
    const kicked = await enterVoice(kit, hall);
    await api(server.api, 'DELETE', `/guilds/${guild.id}/members/${kit.id}`, { token: owner.token, expect: 204 });
    assert.equal((await kicked.voice.closed).code, 4014);
    assert.deepEqual((await stays.voice.nextOf(VoiceOp.clientDisconnect)).d, { user_id: kit.id });
    joinVoice(stays.gateway, null);
  });

  // Last: it deletes the guild.
  it('deleting the guild closes its voice members 4014', async () => {
    const [anna, bert] = users as [TestUser, TestUser];
    const room = await createVoiceChannel('last');
    const a = await enterVoice(anna, room);
    const b = await enterVoice(bert, room);
    await api(server.api, 'DELETE', `/guilds/${guild.id}`, { token: owner.token, expect: 204 });
    for (const closed of await Promise.all([a.voice.closed, b.voice.closed])) assert.equal(closed.code, 4014);
  });
});
