import assert from 'node:assert/strict';
import { constants, createInflate } from 'node:zlib';
import { ZlibStreamEncoder } from '../../../src/gateway/ZlibStreamEncoder.js';

const SYNC_FLUSH = Buffer.from([0, 0, 0xff, 0xff]);

/** Inflates messages with one context, as a zlib-stream client does. */
async function inflateAll(messages: readonly Buffer[]): Promise<string[]> {
  const inflate = createInflate();
  let out: Buffer[] = [];
  inflate.on('data', (chunk: Buffer) => out.push(chunk));
  return Promise.all(
    messages.map(
      (message) =>
        new Promise<string>((resolve) => {
          inflate.write(message);
          inflate.flush(constants.Z_SYNC_FLUSH, () => {
            resolve(Buffer.concat(out).toString('utf8'));
            out = [];
          });
        }),
    ),
  );
}

describe('ZlibStreamEncoder', () => {
  it('emits one message per frame, each ending with the sync-flush marker, in order', async () => {
    const messages: Buffer[] = [];
    const encoder = new ZlibStreamEncoder((message) => messages.push(message));
    const frames = Array.from({ length: 50 }, (_, i) => JSON.stringify({ op: 0, s: i, d: 'x'.repeat(i * 1_000) }));
    for (const frame of frames) encoder.write(frame);
    await new Promise<void>((resolve) => {
      encoder.afterPending(resolve);
    });
    assert.equal(messages.length, frames.length);
    for (const message of messages) assert.ok(message.subarray(-4).equals(SYNC_FLUSH));
    // The stream's header announces a 4 KiB window (CMF 0x48: deflate, CINFO 4), half the memory per socket;
    // the client's inflater, with zlib's default 32 KiB window, still reads every frame.
    assert.equal(messages[0]?.[0], 0x48);
    assert.deepEqual(await inflateAll(messages), frames);
    encoder.close();
  });

  it('runs afterPending at once when nothing is in flight', () => {
    const encoder = new ZlibStreamEncoder(() => undefined);
    let ran = false;
    encoder.afterPending(() => (ran = true));
    assert.equal(ran, true);
    encoder.close();
  });
});
