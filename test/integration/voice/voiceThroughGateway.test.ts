import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { GatewayClient } from '../../support/GatewayClient.js';
import { VoiceWorld, type VoiceServerJson } from '../gateway/voiceFixtures.js';
import { VoiceEncryptionMode } from '../../../src/voice/voiceProtocol.js';
import { RawVoiceClient } from './rawVoiceClient.js';

describe('voice through the node: op 4, VOICE_SERVER_UPDATE, then the voice service it names', () => {
  let world: VoiceWorld;
  let lounge: string;
  const voiceClients: RawVoiceClient[] = [];

  before(async () => {
    world = await VoiceWorld.start();
    lounge = await world.createVoiceChannel('lounge');
  });
  after(async () => {
    await Promise.all(voiceClients.map((client) => client.close()));
    await world.stop();
  });

  /** Joins the lounge over the gateway and opens the voice socket at the endpoint the server sent. */
  async function joinLounge(
    token: string,
  ): Promise<{ gateway: GatewayClient; voice: RawVoiceClient; identify: Record<string, unknown> }> {
    const { client, sessionId, ready } = await world.connect(token);
    world.joinVoice(client, lounge, false);
    const update = await client.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE');
    const cert = world.server.node.voice?.tls.cert;
    assert.ok(cert, 'the node runs a voice service');
    const voice = await RawVoiceClient.connect(`wss://${update.d.endpoint}/?v=8`, cert);
    voiceClients.push(voice);
    const userId = (ready['user'] as { id: string }).id;
    const identify = { server_id: world.guild.id, user_id: userId, session_id: sessionId, token: update.d.token };
    return { gateway: client, voice, identify };
  }

  it('two users in one voice channel hear each other with the tokens the gateway issued, used once', async () => {
    const owner = await joinLounge(world.owner.token);
    const member = await joinLounge(world.member.token);
    await owner.voice.join(owner.identify, VoiceEncryptionMode.xchacha);
    await member.voice.join(member.identify, VoiceEncryptionMode.aesGcm);
    owner.voice.send(5, { speaking: 1, delay: 0, ssrc: owner.voice.ssrc });
    const speaking = await member.voice.nextOf(5);
    assert.equal((speaking.d as { user_id: string }).user_id, owner.identify['user_id']);
    const frame = randomBytes(70);
    owner.voice.sendAudio(frame, Number(world.server.node.voice?.port));
    assert.deepEqual(await member.voice.receiveAudio(), { ssrc: owner.voice.ssrc, payload: frame });

    const replay = await RawVoiceClient.connect(
      `wss://${world.server.node.voice?.endpoint ?? ''}/?v=8`,
      world.server.node.voice?.tls.cert,
    );
    voiceClients.push(replay);
    await replay.nextOf(8);
    replay.send(0, owner.identify);
    assert.equal((await replay.closed).code, 4004);
  });
});
