import assert from 'node:assert/strict';
import { after, before, describe, it } from 'mocha';
import type { GatewayClient } from '../../support/GatewayClient.js';
import { api, registerUser, type TestServer, type TestUser } from '../../support/testServer.js';
import { joinGuild, type TestGuild } from './gatewayFixtures.js';
import { VoiceWorld, type VoiceStateJson } from './voiceFixtures.js';

describe('voice states in stages, and how a connection ends besides leaving', () => {
  let world: VoiceWorld;
  let server: TestServer;
  let owner: TestUser;
  let member: TestUser;
  let guild: TestGuild;
  const voice = { stage: '' };
  const connect = (token: string) => world.connect(token);
  const joinVoice = (client: GatewayClient, channelId: string | null): void => {
    world.joinVoice(client, channelId);
  };
  const stateOf = (client: GatewayClient, match: (d: VoiceStateJson) => boolean, from = 0) =>
    world.stateOf(client, match, from);

  before(async () => {
    world = await VoiceWorld.start();
    ({ server, owner, member, guild } = world);
    voice.stage = await world.createVoiceChannel('stage', { type: 13 });
  });
  after(() => world.stop());

  it('suppresses a stage audience, lets MUTE_MEMBERS invite a speaker and members raise a hand', async () => {
    const b = await connect(member.token);
    const a = await connect(owner.token);
    joinVoice(b.client, voice.stage);
    const joined = await stateOf(a.client, (d) => d.user_id === member.id && d.channel_id === voice.stage);
    assert.equal(joined.d.suppress, true);
    const path = `/guilds/${guild.id}/voice-states`;
    const base = { self_mute: false, self_deaf: false };
    const refused = await api<{ code: number }>(server.api, 'PATCH', `${path}/@me`, {
      token: member.token,
      body: { ...base, channel_id: voice.stage, suppress: false },
      expect: 403,
    });
    assert.equal(refused.code, 50013);
    const raisedAt = new Date().toISOString();
    await api(server.api, 'PATCH', `${path}/@me`, {
      token: member.token,
      body: { ...base, channel_id: voice.stage, request_to_speak_timestamp: raisedAt },
      expect: 204,
    });
    await stateOf(a.client, (d) => d.user_id === member.id && d.request_to_speak_timestamp === raisedAt);
    await api(server.api, 'PATCH', `${path}/${member.id}`, {
      token: owner.token,
      body: { ...base, channel_id: voice.stage, suppress: false },
      expect: 204,
    });
    const speaking = await stateOf(b.client, (d) => d.user_id === member.id && !d.suppress);
    assert.equal(speaking.d.request_to_speak_timestamp, null);
    const otherUser = await api<{ code: number }>(server.api, 'PATCH', `${path}/${owner.id}`, {
      token: member.token,
      body: { ...base, suppress: true },
      expect: 403,
    });
    assert.equal(otherUser.code, 50013);
    joinVoice(b.client, null);
    await stateOf(a.client, (d) => d.user_id === member.id && d.channel_id === null);
    const gone = await api<{ code: number }>(server.api, 'PATCH', `${path}/@me`, {
      token: member.token,
      body: { ...base, suppress: true },
      expect: 404,
    });
    assert.equal(gone.code, 10065);
  });

  it('disconnects everyone in a voice channel that is deleted', async () => {
    const doomed = await world.createVoiceChannel('doomed');
    const a = await connect(owner.token);
    const b = await connect(member.token);
    joinVoice(b.client, doomed);
    await stateOf(a.client, (d) => d.user_id === member.id && d.channel_id === doomed);
    await api(server.api, 'DELETE', `/channels/${doomed}`, { token: owner.token });
    const left = await stateOf(a.client, (d) => d.user_id === member.id && d.channel_id === null);
    assert.equal(left.d.session_id, b.sessionId);
    const create = await connect(owner.token);
    const readyGuild = (create.ready['guilds'] as { id: string; voice_states: unknown[] }[]).find(
      (g) => g.id === guild.id,
    );
    assert.deepEqual(readyGuild?.voice_states, []);
  });

  it('takes a kicked member out of voice, telling the members who stay', async () => {
    const lounge = await world.createVoiceChannel('lounge');
    const kicked = await registerUser(server.api, 'kicked');
    await joinGuild(server.api, owner.token, guild.channelId, kicked.token);
    const a = await connect(owner.token);
    const k = await connect(kicked.token);
    joinVoice(k.client, lounge);
    await stateOf(a.client, (d) => d.user_id === kicked.id && d.channel_id === lounge);
    await api(server.api, 'DELETE', `/guilds/${guild.id}/members/${kicked.id}`, { token: owner.token });
    const left = await stateOf(a.client, (d) => d.user_id === kicked.id && d.channel_id === null);
    assert.equal(left.d.session_id, k.sessionId);
  });
});
