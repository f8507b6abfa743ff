import assert from 'node:assert/strict';
import OpusScript from 'opusscript';
import { VoiceWorld, type VoiceServerJson } from '../gateway/voiceFixtures.js';
import { WebRtcVoiceClient } from './webrtcVoiceClient.js';

/** 20 ms of a 440 Hz tone at 48 kHz stereo, opus-encoded, `count` times. */
function opusFrames(count: number): Buffer[] {
  const encoder = new OpusScript(48_000, 2, OpusScript.Application.AUDIO);
  const frames: Buffer[] = [];
  for (let frame = 0; frame < count; frame++) {
    const pcm = Buffer.alloc(960 * 2 * 2);
    for (let i = 0; i < 960; i++) {
      const sample = Math.round(8_000 * Math.sin((2 * Math.PI * 440 * (frame * 960 + i)) / 48_000));
      pcm.writeInt16LE(sample, i * 4);
      pcm.writeInt16LE(sample, i * 4 + 2);
    }
    frames.push(Buffer.from(encoder.encode(pcm, 960)));
  }
  encoder.delete();
  return frames;
}

describe('WebRTC voice through the node: two web clients join by op 4 and hear each other', function () {
  let world: VoiceWorld;
  let lounge: string;
  const clients: WebRtcVoiceClient[] = [];

  before(async () => {
    world = await VoiceWorld.start();
    lounge = await world.createVoiceChannel('webrtc lounge');
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await world.stop();
  });

  /** Joins the lounge over the gateway, then the voice service VOICE_SERVER_UPDATE names, as a web client. */
  async function joinAsWebClient(token: string): Promise<WebRtcVoiceClient> {
    const { client, sessionId, ready } = await world.connect(token);
    world.joinVoice(client, lounge, false);
    const update = await client.waitForDispatch<VoiceServerJson>('VOICE_SERVER_UPDATE');
    const cert = world.server.node.voice?.tls.cert;
    assert.ok(cert, 'the node runs a voice service');
    const web = await WebRtcVoiceClient.connect(`wss://${update.d.endpoint}/?v=8`, cert);
    clients.push(web);
    const userId = (ready['user'] as { id: string }).id;
    await web.join({ server_id: world.guild.id, user_id: userId, session_id: sessionId, token: update.d.token });
    return web;
  }

  it('one web client sends opus RTP, the other receives at least 90% of it byte-identical', async () => {
    const speaker = await joinAsWebClient(world.owner.token);
    const listener = await joinAsWebClient(world.member.token);
    speaker.speak();
    const frames = opusFrames(50);
    for (const frame of frames) {
      await speaker.sendOpus(frame);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const received = await listener.receivedAtLeast(50, 5_000);
    const intact = received.filter((rtp) => frames.some((frame) => frame.equals(rtp.payload))).length;
    assert.ok(intact >= 45, `the listener got ${intact} of 50 frames intact`);
    assert.ok(
      received.every((rtp) => rtp.header.payloadType === 111),
      "the listener's opus payload type",
    );
  });
});
