import assert from 'node:assert/strict';
import { Mailbox } from '../../../actors/runtime/Mailbox.js';
import { ActorOverloadedError } from '../../../src/domain/errors.js';

describe('Mailbox', () => {
  it('runs one turn at a time, in arrival order', async () => {
    const log: string[] = [];
    let active = 0;
    const mailbox = new Mailbox<number, number>(
      async (n) => {
        active += 1;
        assert.equal(active, 1, 'two turns overlapped');
        log.push(`start ${n}`);
        await new Promise<void>((resolve) => setImmediate(resolve));
        log.push(`end ${n}`);
        active -= 1;
        return n * 2;
      },
      10,
      () => undefined,
    );
    const replies = await Promise.all([mailbox.ask(1), mailbox.ask(2), mailbox.ask(3)]);
    assert.deepEqual(replies, [2, 4, 6]);
    assert.deepEqual(log, ['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
  });

  it('refuses a message when full instead of queueing without bound', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const mailbox = new Mailbox<number, number>(
      async (n) => {
        await gate;
        return n;
      },
      2,
      () => undefined,
    );
    const first = mailbox.ask(1); // in its turn
    const queued = [mailbox.ask(2), mailbox.ask(3)];
    await assert.rejects(mailbox.ask(4), ActorOverloadedError);
    assert.throws(() => {
      mailbox.tell(5);
    }, ActorOverloadedError);
    release();
    assert.deepEqual(await Promise.all([first, ...queued]), [1, 2, 3]);
  });

  it('rejects the asker when a turn throws and goes on with the next message', async () => {
    const mailbox = new Mailbox<number, number>(
      (n) => (n === 1 ? Promise.reject(new Error('boom')) : Promise.resolve(n)),
      10,
      () => undefined,
    );
    await assert.rejects(mailbox.ask(1), /boom/);
    assert.equal(await mailbox.ask(2), 2);
  });

  it('reports a failed tell to its error handler', async () => {
    const failures: unknown[] = [];
    const done = new Promise<void>((resolve) => {
      const mailbox = new Mailbox<number, number>(
        () => Promise.reject(new Error('told and failed')),
        10,
        (error) => {
          failures.push(error);
          resolve();
        },
      );
      mailbox.tell(1);
    });
    await done;
    assert.match(String(failures[0]), /told and failed/);
  });
});
