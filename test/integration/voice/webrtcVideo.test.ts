import { startLoopbackVoiceServer } from './loopbackVoiceServer.js';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { PictureLossIndication, RtcpPayloadSpecificFeedback } from 'werift';
import { voiceGrant } from '../../support/voiceGrant.js';
import { type RunningVoiceServer } from '../../../src/voice/VoiceServer.js';
import { BROWSER_VP8_PT, WebRtcVoiceClient } from './webrtcVoiceClient.js';

const SECRET = 'webrtc-video-secret';
const GUILD = '100000000000000001';
/** Each test talks in a channel of its own. */
let channel = 300000000000000777n;
let userCounter = 600000000000000000n;

function identifyFor(): Record<string, unknown> {
  const userId = String((userCounter += 1n));
  const sessionId = `video-session-${userId}`;
  return voiceGrant(SECRET, { userId, sessionId, guildId: GUILD, channelId: String(channel) }).identify;
}

describe('WebRTC video: a werift camera publisher and watcher through the SFU', function () {
  let server: RunningVoiceServer;
  const clients: WebRtcVoiceClient[] = [];

  before(async () => {
    server = await startLoopbackVoiceServer(SECRET);
  });
  beforeEach(() => {
    channel += 1n;
  });
  after(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await server.close();
  });

  async function join(): Promise<WebRtcVoiceClient> {
    const client = await WebRtcVoiceClient.connect(`wss://${server.endpoint}/?v=8`, server.tls.cert, { video: true });
    clients.push(client);
    const description = await client.join(identifyFor());
    assert.equal((description.d as { video_codec: string }).video_codec, 'VP8');
    return client;
  }

  it('forwards VP8 from a publisher to a watcher who joined later, and relays the watcher PLI to the publisher', async () => {
    const camera = await join();
    const watcher = await join();
    const announced = (await watcher.voice.nextOf(12)).d as { video_ssrc: number; user_id: string };
    assert.ok(announced.video_ssrc > 0, 'the watcher learns the video ssrc it will see');
    assert.notEqual(announced.video_ssrc, camera.video?.sender.ssrc);

    const frames = Array.from({ length: 30 }, () => randomBytes(300));
    for (const frame of frames) {
      await camera.sendVideo(frame);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const received = await watcher.receivedAtLeast(30, 5_000, 'video');
    const intact = received.filter((rtp) => frames.some((frame) => frame.equals(rtp.payload))).length;
    assert.ok(intact >= 27, `the watcher got ${intact} of 30 video packets intact`);
    assert.ok(received.every((rtp) => rtp.header.payloadType === BROWSER_VP8_PT));

    // Watched on the camera's transport: werift's own routing gives feedback to the receiver registered under the
    // RTCP sender ssrc, which here is one the camera listens on (the SFU's sender ssrc for it).
    const cameraSender = camera.video?.sender;
    const pictureLoss = new Promise<void>((resolve) => {
      cameraSender?.dtlsTransport.onRtcp.subscribe((rtcp) => {
        if (rtcp instanceof RtcpPayloadSpecificFeedback && rtcp.feedback instanceof PictureLossIndication) {
          if (rtcp.feedback.mediaSsrc === cameraSender.ssrc) resolve();
        }
      });
    });
    await watcher.video?.receiver.sendRtcpPLI(announced.video_ssrc);
    await pictureLoss; // the SFU asked the publisher for a keyframe
  });
  it('forwards the best active simulcast layer the publisher announces in op 12 streams', async () => {
    const camera = await join();
    const watcher = await join();
    await watcher.voice.nextOf(12);
    const real = camera.video?.sender.ssrc ?? 0;
    const layer = (rid: string, ssrc: number, active: boolean, quality: number) => ({
      type: 'video',
      rid,
      ssrc,
      active,
      quality,
      rtx_ssrc: ssrc + 1,
      max_bitrate: 2_500_000,
      max_framerate: 30,
      max_resolution: { type: 'fixed', width: 1280, height: 720 },
    });
    // The full layer is paused; the half layer (the camera's real stream) is what the watcher must get.
    const streams = [layer('100', real + 10, false, 100), layer('50', real, true, 50)];
    camera.voice.send(12, { audio_ssrc: camera.ssrc, video_ssrc: real + 10, rtx_ssrc: real + 11, streams });
    const relayed = (await watcher.voice.nextOf(12)).d as { streams: { ssrc: number; active: boolean }[] };
    assert.equal(relayed.streams.length, 2);
    const frames = Array.from({ length: 20 }, () => randomBytes(200));
    for (const frame of frames) {
      await camera.sendVideo(frame);
      await new Promise((resolve) => setImmediate(resolve));
    }
    const received = await watcher.receivedAtLeast(18, 5_000, 'video');
    const intact = received.filter((rtp) => frames.some((frame) => frame.equals(rtp.payload))).length;
    assert.ok(intact >= 18, `the watcher got ${intact} of 20 packets of the active layer`);
  });
});
