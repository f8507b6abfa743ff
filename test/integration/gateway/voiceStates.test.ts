import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import { verifyVoiceToken } from '../../../src/domain/voiceToken.js';
import type { GatewayClient, GatewayFrame } from '../../support/GatewayClient.js';
import { api, registerUser, type TestServer, type TestUser } from '../../support/testServer.js';
import { addBot, createBot, joinGuild, postMessage, type TestGuild } from './gatewayFixtures.js';
import { VOICE_TEST_SECRET as SECRET, VoiceWorld, type VoiceServerJson, type VoiceStateJson } from './voiceFixtures.js';

const GUILDS = 1 << 0;
const GUILD_VOICE_STATES = 1 << 7;
const GUILD_MESSAGES = 1 << 9;
const CONNECT = 1n << 20n;

describe('voice states (gateway op 4, VOICE_STATE_UPDATE, VOICE_SERVER_UPDATE)', () => {
  let world: VoiceWorld;
  let server: TestServer;
  let owner: TestUser;
  let member: TestUser;
  let guild: TestGuild;
  const voice: Record<'lounge' | 'studio' | 'locked' | 'booth', string> = {
    lounge: '',
    studio: '',
    locked: '',
    booth: '',
  };
  const connect = (token: string, intents?: number) => world.connect(token, intents);
  const joinVoice = (client: GatewayClient, channelId: string | null): void => {
    world.joinVoice(client, channelId);
  };
  const stateOf = (client: GatewayClient, match: (d: VoiceStateJson) => boolean, from = 0) =>
    world.stateOf(client, match, from);
  const patchMember = (token: string, userId: string, body: unknown, expect = 200) =>
    api<Record<string, unknown>>(server.api, 'PATCH', `/guilds/${guild.id}/members/${userId}`, {
      token,
      body,
      expect,
    });

  before(async () => {
    world = await VoiceWorld.start();
    ({ server, owner, member, guild } = world);
    voice.lounge = await world.createVoiceChannel('lounge');
    voice.studio = await world.createVoiceChannel('studio');
    voice.locked = await world.createVoiceChannel('locked', {
      permission_overwrites: [{ id: guild.id, type: 0, allow: '0', deny: CONNECT.toString() }],
    });
    voice.booth = await world.createVoiceChannel('booth', { user_limit: 1 });
  });
  after(() => world.stop());

  it('tells the joiner its state then a voice server with a token for its session and channel, others the state only', async () => {
    const a = await connect(owner.token);
    const b = await connect(member.token);
    joinVoice(a.client, voice.lounge);
    const own = await stateOf(a.client, (d) => d.channel_id === voice.lounge);
    const serverFrame = await a.client.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE');
    assert.ok((own.s ?? 0) < (serverFrame.s ?? 0), 'VOICE_STATE_UPDATE comes before VOICE_SERVER_UPDATE');
    assert.deepEqual(
      { ...own.d, member: own.d.member?.user.id },
      {
        guild_id: guild.id,
        channel_id: voice.lounge,
        user_id: owner.id,
        member: owner.id,
        session_id: a.sessionId,
        deaf: false,
        mute: false,
        self_deaf: true,
        self_mute: false,
        self_stream: false,
        self_video: false,
        suppress: false,
        request_to_speak_timestamp: null,
      },
    );
    assert.equal(serverFrame.d.guild_id, guild.id);
    assert.equal(serverFrame.d.endpoint, `127.0.0.1:${Number(new URL(server.api).port) + 1}`);
    const claims = verifyVoiceToken(SECRET, serverFrame.d.token, Date.now());
    assert.deepEqual(claims && { ...claims, nonce: typeof claims.nonce }, {
      userId: owner.id,
      sessionId: a.sessionId,
      guildId: guild.id,
      channelId: voice.lounge,
      nonce: 'string',
    });
    assert.equal(verifyVoiceToken('another secret', serverFrame.d.token, Date.now()), undefined);
    const seen = await stateOf(b.client, (d) => d.user_id === owner.id && d.channel_id === voice.lounge);
    assert.equal(seen.d.session_id, a.sessionId);
    // A later event for both shows B was never sent a voice server.
    await postMessage(server.api, owner.token, guild.channelId, 'marker after join');
    await b.client.waitForDispatch<{ content: string }>('MESSAGE_CREATE', (d) => d.content === 'marker after join');
    assert.equal(b.client.dispatches('VOICE_SERVER_UPDATE').length, 0);

    // A new session sees the voice state in its READY guild.
    const later = await connect(member.token);
    const readyGuild = (later.ready['guilds'] as { id: string; voice_states: VoiceStateJson[] }[]).find(
      (g) => g.id === guild.id,
    );
    assert.deepEqual(
      readyGuild?.voice_states.map((state) => [state.user_id, state.channel_id, state.session_id]),
      [[owner.id, voice.lounge, a.sessionId]],
    );

    // Moving issues a new token for the new channel.
    const from = a.client.frames.length;
    joinVoice(a.client, voice.studio);
    await stateOf(a.client, (d) => d.channel_id === voice.studio, from);
    const moved = await a.client.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE', () => true, { from });
    assert.notEqual(moved.d.token, serverFrame.d.token);
    assert.equal(verifyVoiceToken(SECRET, moved.d.token, Date.now())?.channelId, voice.studio);
    await stateOf(b.client, (d) => d.user_id === owner.id && d.channel_id === voice.studio);

    // Leaving: channel_id null to everyone, no voice server.
    const beforeLeave = a.client.frames.length;
    joinVoice(a.client, null);
    await stateOf(a.client, (d) => d.channel_id === null, beforeLeave);
    await stateOf(b.client, (d) => d.user_id === owner.id && d.channel_id === null);
    assert.equal(a.client.frames.slice(beforeLeave).filter((f) => f.t === 'VOICE_SERVER_UPDATE').length, 0);
  });

  it('takes the user out of voice when the session holding the connection ends', async () => {
    const watcher = await connect(member.token);
    const leaving = await connect(owner.token);
    joinVoice(leaving.client, voice.lounge);
    await stateOf(watcher.client, (d) => d.session_id === leaving.sessionId && d.channel_id === voice.lounge);
    await leaving.client.close(1000);
    const left = await stateOf(watcher.client, (d) => d.session_id === leaving.sessionId && d.channel_id === null);
    assert.equal(left.d.user_id, owner.id);
  });

  it('ignores a join where CONNECT is denied, and one past the user limit without MOVE_MEMBERS', async () => {
    const b = await connect(member.token);
    const a = await connect(owner.token);
    joinVoice(b.client, voice.locked);
    joinVoice(b.client, voice.booth); // allowed: the booth is empty
    await stateOf(a.client, (d) => d.user_id === member.id && d.channel_id === voice.booth);
    const refused = (frame: GatewayFrame) => (frame.d as VoiceStateJson | null)?.channel_id === voice.locked;
    assert.equal(b.client.frames.filter(refused).length + a.client.frames.filter(refused).length, 0);
    await stateOf(b.client, (d) => d.channel_id === voice.booth);
    const granted = await b.client.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE');
    assert.equal(verifyVoiceToken(SECRET, granted.d.token, Date.now())?.channelId, voice.booth);

    // A third member without MOVE_MEMBERS cannot enter the full booth; the owner (MOVE_MEMBERS) can.
    const third = await registerUser(server.api, 'third');
    await joinGuild(server.api, owner.token, guild.channelId, third.token);
    const c = await connect(third.token);
    joinVoice(c.client, voice.booth);
    joinVoice(c.client, voice.lounge);
    await stateOf(a.client, (d) => d.user_id === third.id && d.channel_id === voice.lounge);
    assert.equal(
      a.client
        .dispatches<VoiceStateJson>('VOICE_STATE_UPDATE')
        .filter((f) => f.d.user_id === third.id && f.d.channel_id === voice.booth).length,
      0,
    );
    joinVoice(a.client, voice.booth);
    await stateOf(b.client, (d) => d.user_id === owner.id && d.channel_id === voice.booth);
    for (const client of [a.client, b.client, c.client]) joinVoice(client, null);
    for (const userId of [owner.id, member.id, third.id]) {
      await stateOf(c.client, (d) => d.user_id === userId && d.channel_id === null);
    }
  });

  it('server-mutes, deafens, moves and disconnects a member by PATCH, each only with its permission', async () => {
    const b = await connect(member.token);
    const a = await connect(owner.token);
    // Not connected: moving answers 400 40032.
    const notConnected = await api<{ code: number }>(server.api, 'PATCH', `/guilds/${guild.id}/members/${member.id}`, {
      token: owner.token,
      body: { channel_id: voice.studio },
      expect: 400,
    });
    assert.equal(notConnected.code, 40032);
    joinVoice(b.client, voice.lounge);
    await stateOf(a.client, (d) => d.user_id === member.id && d.channel_id === voice.lounge);

    for (const body of [{ mute: true }, { deaf: true }, { channel_id: voice.studio }, { channel_id: null }]) {
      const denied = await patchMember(member.token, owner.id, body, 403);
      assert.equal(denied['code'], 50013, JSON.stringify(body));
    }

    await patchMember(owner.token, member.id, { mute: true, deaf: true });
    await stateOf(b.client, (d) => d.user_id === member.id && d.mute && d.deaf);

    const from = b.client.frames.length;
    await patchMember(owner.token, member.id, { channel_id: voice.studio });
    await stateOf(a.client, (d) => d.user_id === member.id && d.channel_id === voice.studio);
    const moved = await b.client.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE', () => true, { from });
    assert.equal(verifyVoiceToken(SECRET, moved.d.token, Date.now())?.channelId, voice.studio);

    const bad = await patchMember(owner.token, member.id, { channel_id: guild.channelId }, 400);
    assert.equal(bad['code'], 50035);

    await patchMember(owner.token, member.id, { channel_id: null });
    await stateOf(b.client, (d) => d.user_id === member.id && d.channel_id === null);
    await patchMember(owner.token, member.id, { mute: false, deaf: false });
  });

  it('sends voice states to bots with GUILD_VOICE_STATES only, and lists them in GUILD_CREATE', async () => {
    const listening = await createBot(server.api, owner.token, 'listening');
    const deafBot = await createBot(server.api, owner.token, 'unhearing');
    await addBot(server.api, owner.token, listening, guild.id);
    await addBot(server.api, owner.token, deafBot, guild.id);
    const withIntent = await connect(listening.token, GUILDS | GUILD_VOICE_STATES | GUILD_MESSAGES);
    const without = await connect(deafBot.token, GUILDS | GUILD_MESSAGES);
    await withIntent.client.waitForDispatch('GUILD_CREATE', (d) => d['id'] === guild.id);
    await without.client.waitForDispatch('GUILD_CREATE', (d) => d['id'] === guild.id);
    const a = await connect(owner.token);
    joinVoice(a.client, voice.lounge);
    await stateOf(withIntent.client, (d) => d.user_id === owner.id && d.channel_id === voice.lounge);
    const marker = await postMessage(server.api, owner.token, guild.channelId, 'marker for bots');
    await without.client.waitForDispatch<{ id: string }>('MESSAGE_CREATE', (d) => d.id === marker.id);
    assert.equal(without.client.dispatches('VOICE_STATE_UPDATE').length, 0);

    const late = await connect(listening.token, GUILDS | GUILD_VOICE_STATES);
    const create = await late.client.waitForDispatch<{ id: string; voice_states: VoiceStateJson[] }>(
      'GUILD_CREATE',
      (d) => d.id === guild.id,
    );
    assert.deepEqual(
      create.d.voice_states.map((state) => [state.user_id, state.channel_id]),
      [[owner.id, voice.lounge]],
    );
    joinVoice(a.client, null);
    await stateOf(withIntent.client, (d) => d.user_id === owner.id && d.channel_id === null);
  });
});
