import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { VoiceWorld } from '../gateway/voiceFixtures.js';

const BOTS = fileURLToPath(new URL('./djsVoiceBots.ts', import.meta.url));

/** Runs the bots' child process, trusting the node's voice certificate, and returns its JSON line. */
async function runBots(
  cert: string,
  args: Record<string, unknown>,
): Promise<{ received: string[]; speakingStarted: boolean }> {
  const certFile = join(mkdtempSync(join(tmpdir(), 'chorus-voice-')), 'voice-cert.pem');
  writeFileSync(certFile, cert);
  const child = spawn(process.execPath, ['--import', 'tsx', BOTS, JSON.stringify(args)], {
    env: { ...process.env, NODE_EXTRA_CA_CERTS: certFile },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  assert.equal(code, 0, `bots exited ${code}: ${err}`);
  return JSON.parse(out.trim().split('\n').at(-1) ?? '{}') as { received: string[]; speakingStarted: boolean };
}

describe('real @discordjs/voice 0.19.2 clients through the voice service', function () {
  this.timeout(30_000);
  let world: VoiceWorld;
  before(async () => {
    world = await VoiceWorld.start();
  });
  after(() => world.stop());

  it('one connection plays 50 opus frames and the other receives them through its VoiceReceiver, byte-identical', async () => {
    const channelId = await world.createVoiceChannel('bots');
    const frames = Array.from({ length: 50 }, (_, index) =>
      Buffer.concat([Buffer.from([0xfc, index]), randomBytes(60)]),
    );
    const cert = world.server.node.voice?.tls.cert;
    assert.ok(cert);
    const result = await runBots(cert, {
      gatewayUrl: world.server.gatewayUrl,
      guildId: world.guild.id,
      channelId,
      senderToken: world.owner.token,
      receiverToken: world.member.token,
      frames: frames.map((frame) => frame.toString('base64')),
    });
    const sent = new Set(frames.map((frame) => frame.toString('base64')));
    const matching = result.received.filter((packet) => sent.has(packet));
    // The first frame may beat the Speaking relay that maps the ssrc (voice.md §2): most, not all.
    assert.ok(matching.length >= 45, `${matching.length} of 50 frames arrived intact`);
    assert.equal(result.speakingStarted, true);
  });
});
