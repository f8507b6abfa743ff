import assert from 'node:assert/strict';
import { registerUser, type TestUser } from '../../support/testServer.js';
import { joinGuild } from '../gateway/gatewayFixtures.js';
import { VoiceWorld } from '../gateway/voiceFixtures.js';
import { ChromiumHarness } from './browser/ChromiumHarness.js';
import { hear, joinUdpBot, playTone, ssrcOfUser, type UdpBot } from './browser/udpBot.js';
import { VoicePage, type VoicePageStatus } from './browser/VoicePage.js';

// voice.md §6 T2 and T3: real headless Chromium speaking the Discord web client's WebRTC signalling (the page script
// in ./browser, written from the documented rules) through the node's voice service.
describe('headless Chromium in a voice channel through the SFU', function () {
  this.timeout(30_000);
  let world: VoiceWorld;
  let browser: ChromiumHarness | undefined;
  const bots: UdpBot[] = [];

  before(async () => {
    world = await VoiceWorld.start();
    browser = await ChromiumHarness.launch();
  });
  after(async () => {
    await browser?.close();
    await Promise.all(bots.map((bot) => bot.voice.close()));
    await world?.stop();
  });

  async function guildMember(name: string): Promise<TestUser> {
    const user = await registerUser(world.server.api, name);
    await joinGuild(world.server.api, world.owner.token, world.guild.channelId, user.token);
    return user;
  }

  async function browserPage(): Promise<VoicePage> {
    assert.ok(browser, 'chromium launched');
    return new VoicePage(await browser.openVoicePage());
  }

  it('a browser hears the 440 Hz oscillator another browser publishes (T2)', async () => {
    const channelId = await world.createVoiceChannel('browsers');
    const common = { gatewayUrl: world.server.gatewayUrl, guildId: world.guild.id, channelId };
    const speaker = await browserPage();
    const listener = await browserPage();
    const spoke = await speaker.join({
      ...common,
      token: world.owner.token,
      direction: 'sendrecv',
      voiceScheme: 'wss',
    });
    assert.notEqual(spoke.audioSsrc, 0, 'the speaker sends audio with an SSRC of its own');
    await listener.join({ ...common, token: world.member.token, direction: 'recvonly', voiceScheme: 'ws' });

    const heard = await listener.waitFor(
      'the listener to receive and play the tone',
      (status) => VoicePage.packetsReceived(status) > 100 && (status.rms?.max ?? 0) > 0.05,
      15_000,
    );
    assert.equal(heard.connectionState, 'connected');
    // A receiver maps SSRC to user only through op 5 / op 12 (voice.md §2): the stream it plays is the one announced.
    const announced = Object.values(heard.remotes ?? {}).find((remote) => remote.userId === spoke.userId);
    assert.ok(announced, `the listener was told the speaker's SSRC: ${JSON.stringify(heard.remotes)}`);
    const playing = heard.stats?.inbound.find((stream) => stream.packetsReceived > 100);
    assert.equal(playing?.ssrc, announced.ssrc);
    await Promise.all([speaker.leave(), listener.leave()]);
  });

  it('a browser hears two browsers talking at once, each on its own stream (440 and 880 Hz)', async () => {
    const channelId = await world.createVoiceChannel('chorus');
    const [low, high, ear] = await Promise.all([guildMember('low'), guildMember('high'), guildMember('ear')]);
    const common = {
      gatewayUrl: world.server.gatewayUrl,
      guildId: world.guild.id,
      channelId,
      voiceScheme: 'wss' as const,
    };
    const speakers = [await browserPage(), await browserPage()];
    const listener = await browserPage();
    const spoke = [
      await speakers[0]?.join({ ...common, token: low.token, direction: 'sendrecv', toneHz: 440 }),
      await speakers[1]?.join({ ...common, token: high.token, direction: 'sendrecv', toneHz: 880 }),
    ];
    await listener.join({ ...common, token: ear.token, direction: 'recvonly' });

    const loud = (status: VoicePageStatus, userId = ''): boolean => (status.heard?.[userId]?.max ?? 0) > 0.05;
    const heard = await listener.waitFor(
      'the listener to receive and play both speakers',
      (status) =>
        (status.stats?.inbound ?? []).filter((stream) => stream.packetsReceived > 100).length >= 2 &&
        spoke.every((joined) => loud(status, joined?.userId)),
      15_000,
    );
    for (const [index, hz] of [440, 880].entries()) {
      const userId = spoke[index]?.userId ?? '';
      const announced = Object.values(heard.remotes ?? {}).find((remote) => remote.userId === userId);
      assert.ok(announced, `the listener was told speaker ${hz} Hz's SSRC: ${JSON.stringify(heard.remotes)}`);
      const stream = heard.stats?.inbound.find((candidate) => candidate.ssrc === announced.ssrc);
      assert.ok((stream?.packetsReceived ?? 0) > 100, `${hz} Hz arrives on its own SSRC: ${JSON.stringify(stream)}`);
      // One bin of a 2048-point FFT is about 22 Hz: each user's track plays that user's tone, unmixed.
      const peakHz = heard.heard?.[userId]?.peakHz ?? 0;
      assert.ok(Math.abs(peakHz - hz) < 50, `the ${hz} Hz speaker's track peaks at ${peakHz} Hz`);
    }
    await Promise.all([...speakers.map((page) => page.leave()), listener.leave()]);
  });

  it('a browser decodes the VP8 camera another browser publishes, on the SSRC op 12 announced', async () => {
    const channelId = await world.createVoiceChannel('cameras');
    const [sender, watcher] = await Promise.all([guildMember('camera'), guildMember('watcher')]);
    const common = {
      gatewayUrl: world.server.gatewayUrl,
      guildId: world.guild.id,
      channelId,
      voiceScheme: 'wss' as const,
    };
    const camera = await browserPage();
    const screen = await browserPage();
    const sent = await camera.join({ ...common, token: sender.token, direction: 'sendrecv', video: 'send' });
    assert.notEqual(sent.videoSsrc, 0, 'the camera sends video with an SSRC of its own');
    // The watcher joins after the camera's op 12: the server tells a newcomer the video already present.
    await screen.join({ ...common, token: watcher.token, direction: 'recvonly', video: 'recv' });

    const seen = await screen.waitFor(
      'the watcher to decode the camera',
      (status) => (status.stats?.video ?? []).some((stream) => stream.framesDecoded > 10),
      15_000,
    );
    const decoded = seen.stats?.video.find((stream) => stream.framesDecoded > 10);
    assert.equal(decoded?.frameWidth, 320);
    const announced = Object.values(seen.remotes ?? {}).find((remote) => remote.rtxSsrc !== undefined);
    assert.equal(announced?.userId, sent.userId);
    assert.equal(decoded?.ssrc, announced?.ssrc);
    await Promise.all([camera.leave(), screen.leave()]);
  });

  it('a UDP bot hears a browser and the browser hears the bot, through the PT and SSRC translation (T3)', async () => {
    const channelId = await world.createVoiceChannel('mixed');
    const [person, botUser] = await Promise.all([guildMember('person'), guildMember('bot')]);
    const page = await browserPage();
    const joined = await page.join({
      gatewayUrl: world.server.gatewayUrl,
      token: person.token,
      guildId: world.guild.id,
      channelId,
      direction: 'sendrecv',
      voiceScheme: 'wss',
    });
    const bot = await joinUdpBot(world, botUser, channelId);
    bots.push(bot);

    // The bot knows the browser's audio by the SSRC op 5 names: the one the browser itself announced (op 12, op 5).
    const browserSsrc = await ssrcOfUser(bot, joined.userId);
    assert.equal(browserSsrc, joined.audioSsrc);
    const tone = playTone(bot);
    try {
      const [botHeard, browserHeard] = await Promise.all([
        hear(bot, browserSsrc, 50, 15_000),
        page.waitFor(
          'the browser to receive and play the bot',
          (status) => VoicePage.packetsReceived(status) > 40 && (status.rms?.max ?? 0) > 0.01,
          15_000,
        ),
      ]);
      assert.ok(botHeard.loud >= 40, `the bot decoded a tone from the browser: ${JSON.stringify(botHeard)}`);
      assert.equal(browserHeard.connectionState, 'connected');
      const announced = Object.values(browserHeard.remotes ?? {}).find((remote) => remote.userId === bot.userId);
      assert.ok(announced, `the browser was told the bot's SSRC: ${JSON.stringify(browserHeard.remotes)}`);
      assert.equal(browserHeard.stats?.inbound.find((stream) => stream.packetsReceived > 40)?.ssrc, announced.ssrc);
    } finally {
      tone.stop();
    }
    await page.leave();
  });
});
