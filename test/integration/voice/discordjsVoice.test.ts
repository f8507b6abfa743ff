import assert from 'node:assert/strict';
import { addBot, createBot, type TestBot } from '../gateway/gatewayFixtures.js';
import { VoiceWorld } from '../gateway/voiceFixtures.js';
import { runBots } from './djsBotProcess.js';
import type { BotsArgs } from './djsVoiceBots.js';
import { VoiceSocketWatch } from './djsVoiceSockets.js';

/** What the bots' child process reports (see djsVoiceBots.ts); fields by scenario. */
interface BotsResult {
  received: number;
  intact: number;
  rms: number[];
  speakingStarted: boolean;
  cachesSawBoth: boolean;
  clientDisconnect: boolean;
  ssrcDeleted: boolean;
  sawLeave: boolean;
  daveVersions: number[];
  maxDave: number[];
  modes: string[];
  atClose: number;
  atResumed: number;
  resumed: boolean;
  ops: string[];
  ssrcs: number[];
  tokens: string[];
  identifyTokens: string[];
  reidentified: boolean;
  readyAgain: boolean;
  aSawMove: boolean;
  gotClose: boolean;
  closeCodes: number[];
  reachedReady: boolean;
  joinedChannelId: string;
  lateChannelId: string | null;
  lateSessionId: string;
  aSessionId: string;
  lateSelfDeaf: boolean;
  listed: string[];
  closed: boolean;
  status: string;
}

/** Frames whose decoded sound is a tone, not silence or garbage. */
const loud = (rms: number[]): number => rms.filter((level) => level > 1000).length;

/**
 * Issue 13 §6 / voice.md T1: two real discord.js v14 Clients (logged in against Chorus, gateway found through
 * /gateway/bot) join voice through guild.voiceAdapterCreator with the real @discordjs/voice 0.19.2, in a child
 * process that trusts the node's voice certificate.
 */
describe('two discord.js bots with @discordjs/voice 0.19.2 through Chorus voice', function () {
  this.timeout(30_000);
  let world: VoiceWorld;
  let bots: [TestBot, TestBot];
  let cert: string;
  let sockets: VoiceSocketWatch;
  before(async () => {
    sockets = new VoiceSocketWatch();
    world = await VoiceWorld.start();
    const { api } = world.server;
    bots = [await createBot(api, world.owner.token, 'speaker'), await createBot(api, world.owner.token, 'listener')];
    // The listener may move members (MOVE_MEMBERS, 1 << 24): it disconnects the speaker in one test.
    await addBot(api, world.owner.token, bots[0], world.guild.id, '0');
    await addBot(api, world.owner.token, bots[1], world.guild.id, String(1 << 24));
    const served = world.server.node.voice?.tls.cert;
    assert.ok(served, 'the node serves voice');
    cert = served;
  });
  after(async () => {
    sockets.stop();
    await world.stop();
  });

  async function run(scenario: BotsArgs['scenario'], extra: Partial<BotsArgs> = {}): Promise<BotsResult> {
    const args: BotsArgs = {
      scenario,
      apiUrl: `${world.server.node.url}/api`,
      guildId: world.guild.id,
      channelId: await world.createVoiceChannel(`${scenario}-1`),
      otherChannelId: await world.createVoiceChannel(`${scenario}-2`),
      tokens: [bots[0].token, bots[1].token],
      frames: 50,
      ...extra,
    };
    return runBots<BotsResult>(cert, args, (userId, code) => {
      assert.ok(sockets.close(userId, code, 'voice server restarting'), `a voice socket of ${userId}`);
    });
  }

  it('bot A plays 50 tone frames that bot B hears and decodes; each sees the other in voice; A leaving is op 13 and channel_id null to B', async () => {
    const result = await run('exchange');
    assert.equal(result.cachesSawBoth, true, "each bot's guild.voiceStates has both in the channel");
    // The first frame may beat the Speaking relay that maps the ssrc (voice.md §2): most, not all.
    assert.ok(result.received >= 45, `${result.received} of 50 packets arrived`);
    assert.ok(result.intact >= 45, `${result.intact} arrived byte-identical to a sent frame`);
    assert.ok(loud(result.rms) >= 40, `${loud(result.rms)} of ${result.received} decoded to a tone`);
    assert.equal(result.speakingStarted, true, "B's receiver.speaking emitted start for A");
    assert.deepEqual(result.maxDave, [1], 'A advertised DAVE 1 (daveEncryption on by default)');
    assert.deepEqual(result.daveVersions, [0], 'the server chose transport encryption only (DAVE 0)');
    assert.deepEqual(result.modes, ['aead_aes256_gcm_rtpsize', 'aead_aes256_gcm_rtpsize']);
    assert.equal(result.clientDisconnect, true, 'B got op 13 for A');
    assert.equal(result.ssrcDeleted, true, "B's receiver forgot A's ssrc");
    assert.equal(result.sawLeave, true, "B's discord.js saw A's voice state with channelId null");
  });

  it('with daveEncryption false (max_dave_protocol_version 0) the same exchange works', async () => {
    const result = await run('exchange', { daveEncryption: false });
    assert.deepEqual(result.maxDave, [0]);
    assert.ok(result.received >= 45, `${result.received} of 50 packets arrived`);
    assert.ok(loud(result.rms) >= 40, `${loud(result.rms)} of ${result.received} decoded to a tone`);
    assert.equal(result.speakingStarted, true);
  });

  it('bots that cannot do AES-GCM select XChaCha20-Poly1305 and the exchange works', async () => {
    const result = await run('exchange', { xchachaOnly: true });
    assert.deepEqual(result.modes, ['aead_xchacha20_poly1305_rtpsize', 'aead_xchacha20_poly1305_rtpsize']);
    assert.ok(result.intact >= 45, `${result.intact} of 50 packets arrived intact`);
    assert.ok(loud(result.rms) >= 40, `${loud(result.rms)} of ${result.received} decoded to a tone`);
  });

  it('a speaker whose voice socket the server closes with 4015 mid-stream resumes (op 7, op 9) with its ssrc, and the listener keeps hearing it', async () => {
    const result = await run('resume', { frames: 100 });
    const resume = result.ops.indexOf('>>7');
    assert.ok(resume > 0, `A sent op 7 Resume: ${result.ops.join(' ')}`);
    assert.ok(result.ops.indexOf('<<9', resume) > resume, `answered op 9 Resumed: ${result.ops.join(' ')}`);
    assert.equal(result.ops.filter((op) => op === '>>0').length, 1, 'no second Identify');
    assert.equal(result.resumed, true);
    assert.equal(new Set(result.ssrcs).size, 1, 'one Ready, one ssrc');
    const after = result.rms.slice(result.atResumed);
    assert.ok(loud(after) >= 40, `${loud(after)} tone frames arrived after the resume (of ${after.length})`);
    assert.ok(result.received >= 90, `${result.received} of 100 packets arrived`);
  });

  it('a bot moving to another voice channel gets a new token, identifies again and is Ready there; the old channel hears op 13', async () => {
    const result = await run('move');
    assert.equal(result.tokens.length, 2, 'two VOICE_SERVER_UPDATEs');
    assert.notEqual(result.tokens[0], result.tokens[1], 'a new token for the new channel');
    assert.deepEqual(result.identifyTokens, result.tokens, '@discordjs/voice identified with each');
    assert.equal(result.reidentified, true);
    assert.equal(result.readyAgain, true, 'B Ready in the other channel');
    assert.equal(result.clientDisconnect, true, 'A (old channel) got op 13 for B');
    assert.equal(result.aSawMove, true, "A's discord.js cache has B in the other channel");
  });

  it('a bot logging in while another is in voice finds it there in its cache (GUILD_CREATE voice_states)', async () => {
    const result = await run('lateLogin');
    assert.equal(result.lateChannelId, result.joinedChannelId);
    assert.equal(result.lateSessionId, result.aSessionId, 'the voice state names the session that joined');
    assert.equal(result.lateSelfDeaf, false);
    assert.deepEqual(result.listed, [bots[0].id], "the voice channel's members are A");
  });

  // The Guild tells the channel's voice room (voice:<channel id>) that A is gone; the voice service ends A's media.
  it('a bot a moderator disconnects is closed 4014 by the voice service and the channel hears op 13', async () => {
    const result = await run('disconnected');
    assert.equal(result.sawLeave, true, "B's discord.js saw A's voice state with channelId null");
    assert.equal(result.clientDisconnect, true, 'B got op 13 for A');
    assert.deepEqual(result.closeCodes, [4014], "A's voice socket closed 4014 (Disconnected)");
    assert.equal(result.status, 'disconnected');
  });

  it('a voice token the gateway never issued is refused with close 4004', async () => {
    const result = await run('badToken');
    assert.equal(result.gotClose, true);
    assert.equal(result.closeCodes[0], 4004);
    assert.equal(result.reachedReady, false);
  });
});
