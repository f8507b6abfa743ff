import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import type * as ZstdBinding from 'zstd-napi/binding.js';
import { ZstdStreamReader } from '../../support/gatewayCodecs.js';
import { ZstdStreamEncoder } from '../../../src/gateway/ZstdStreamEncoder.js';

const binding = createRequire(import.meta.url)('zstd-napi/binding.js') as typeof ZstdBinding;
const MAGIC = Buffer.from([0x28, 0xb5, 0x2f, 0xfd]);

/** The reference streaming decoder (ZSTD_decompressStream), its window capped at 1 MiB like a frugal client's. */
function referenceReader(): (message: Buffer) => Buffer {
  const context = new binding.DCtx();
  context.setParameter(binding.DParameter.windowLogMax, 20);
  const out = Buffer.alloc(binding.dStreamOutSize());
  return (message) => {
    const chunks: Buffer[] = [];
    let input = message;
    for (;;) {
      const [, produced, consumed] = context.decompressStream(out, input);
      chunks.push(Buffer.from(out.subarray(0, produced)));
      input = input.subarray(consumed);
      if (input.length === 0 && produced < out.length) break;
    }
    return Buffer.concat(chunks);
  };
}

describe('ZstdStreamEncoder', () => {
  it('emits one message per frame that two independent streaming decoders read on arrival', () => {
    const messages: Buffer[] = [];
    const encoder = new ZstdStreamEncoder((message) => messages.push(message));
    const frames = [
      JSON.stringify({ op: 10, d: { heartbeat_interval: 41250 } }),
      'x'.repeat(3 * 1024 * 1024), // larger than one output buffer and than the window
      ...Array.from({ length: 50 }, (_, i) => JSON.stringify({ op: 0, s: i, t: 'MESSAGE_CREATE', d: { i } })),
    ];
    for (const frame of frames) encoder.write(frame);
    encoder.write(Buffer.from([131, 106])); // ETF frames are bytes
    encoder.close();
    assert.equal(messages.length, frames.length + 1);
    const fzstd = new ZstdStreamReader();
    const reference = referenceReader();
    messages.forEach((message, i) => {
      const expected = i < frames.length ? Buffer.from(frames[i] as string) : Buffer.from([131, 106]);
      assert.ok(fzstd.read(message).equals(expected), `fzstd, message ${String(i)}`);
      assert.ok(reference(message).equals(expected), `ZSTD_decompressStream, message ${String(i)}`);
    });
  });

  it('keeps one frame open across messages, so a repeated payload costs a few bytes', () => {
    const messages: Buffer[] = [];
    const encoder = new ZstdStreamEncoder((message) => messages.push(message));
    const payload = JSON.stringify({
      op: 0,
      t: 'GUILD_CREATE',
      d: { channels: Array.from({ length: 200 }, (_, i) => ({ id: String(i) })) },
    });
    encoder.write(payload);
    encoder.write(payload);
    assert.ok(messages[0]?.subarray(0, 4).equals(MAGIC));
    assert.ok(!messages[1]?.subarray(0, 4).equals(MAGIC));
    assert.ok((messages[1]?.length ?? Infinity) < 64, `second copy took ${String(messages[1]?.length)} bytes`);
  });

  it('ignores writes after close and has nothing pending', () => {
    let emitted = 0;
    const encoder = new ZstdStreamEncoder(() => (emitted += 1));
    encoder.close();
    encoder.write('{}');
    let ran = false;
    encoder.afterPending(() => (ran = true));
    assert.equal(emitted, 0);
    assert.ok(ran);
  });
});
