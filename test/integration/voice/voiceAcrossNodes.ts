import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { VoiceEncryptionMode, VoiceOp } from '../../../src/voice/voiceProtocol.js';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, registerUser } from '../../support/testServer.js';
import { createGuild, joinGuild } from '../gateway/gatewayFixtures.js';
import type { VoiceServerJson, VoiceStateJson } from '../gateway/voiceFixtures.js';
import { RawVoiceClient } from './rawVoiceClient.js';

/** One node as the scenario reaches it. */
export interface VoiceNode {
  readonly name: string;
  /** e.g. http://127.0.0.1:PORT/api/v10 */
  readonly api: string;
  readonly gatewayUrl: string;
}

/** What the scenario opened, for the caller to close after the test. */
export interface OpenedClients {
  readonly gateways: GatewayClient[];
  readonly voices: RawVoiceClient[];
}

/**
 * Two users, the owner's gateway session on node `a` and the member's on node `b`, join one voice channel:
 * both VOICE_SERVER_UPDATEs name the same endpoint, the one `ownerOf` gives for the channel's ring key
 * (`voice:<channel id>`); both identify there, one's audio reaches the other over UDP, and when the listener
 * closes its voice socket the speaker's gateway sees it leave and its voice socket gets op 13.
 */
export async function voiceAcrossNodes(
  a: VoiceNode,
  b: VoiceNode,
  ownerOf: (ringKey: string) => Promise<{ readonly name: string; readonly voiceEndpoint: string }>,
  opened: OpenedClients,
): Promise<void> {
  const owner = await registerUser(a.api, 'owner');
  const member = await registerUser(b.api, 'member');
  const guild = await createGuild(a.api, owner.token, 'voice across nodes');
  await joinGuild(a.api, owner.token, guild.channelId, member.token);
  const path = `/guilds/${guild.id}/channels`;
  const body = { name: 'lounge', type: 2 };
  const lounge = (await api<{ id: string }>(b.api, 'POST', path, { token: owner.token, body, expect: 201 })).id;
  const host = await ownerOf(`voice:${lounge}`);

  const joined = await Promise.all(
    [
      { node: a, user: owner },
      { node: b, user: member },
    ].map(async ({ node, user }) => {
      const { client, ready } = await GatewayClient.identified(node.gatewayUrl, user.token);
      opened.gateways.push(client);
      client.send(4, { guild_id: guild.id, channel_id: lounge, self_mute: false, self_deaf: false });
      const update = await client.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE');
      return { client, sessionId: ready['session_id'] as string, userId: user.id, update: update.d };
    }),
  );
  const [first, second] = joined as [(typeof joined)[0], (typeof joined)[0]];
  assert.equal(first.update.endpoint, second.update.endpoint, 'one voice server for the channel');
  assert.equal(first.update.endpoint, host.voiceEndpoint, `the endpoint is ${host.name}'s voice service`);
  console.log(`      the channel is placed on ${host.name}; sessions on ${a.name} and ${b.name} were both sent there`);

  const inVoice = await Promise.all(
    joined.map(async ({ update, sessionId, userId }) => {
      const voice = await RawVoiceClient.connect(`ws://${update.endpoint}/?v=8`);
      opened.voices.push(voice);
      const identify = { server_id: guild.id, user_id: userId, session_id: sessionId, token: update.token };
      const ready = await voice.join(identify, VoiceEncryptionMode.aesGcm);
      return { voice, mediaPort: (ready.d as { port: number }).port };
    }),
  );
  const [speaker, listener] = inVoice as [(typeof inVoice)[0], (typeof inVoice)[0]];
  const frame = randomBytes(60);
  speaker.voice.sendAudio(frame, speaker.mediaPort);
  assert.deepEqual(await listener.voice.receiveAudio(), { ssrc: speaker.voice.ssrc, payload: frame });

  // A client that closes its voice socket leaves the guild's voice state, wherever the Guild actor runs.
  const from = first.client.frames.length;
  await listener.voice.close();
  const left = (d: VoiceStateJson): boolean => d.user_id === second.userId && d.channel_id === null;
  await first.client.waitForDispatch<VoiceStateJson>('VOICE_STATE_UPDATE', left, { from });
  assert.deepEqual((await speaker.voice.nextOf(VoiceOp.clientDisconnect)).d, { user_id: second.userId });
}
