import assert from 'node:assert/strict';
import { ChannelHomes, placementKeyOf } from '../../../../cluster/placement/ChannelHomes.js';
import { ServiceUnavailableError, type AppError } from '../../../../src/domain/errors.js';

/** A lookup answered by hand: each call waits until the test settles it. */
function heldLookup(): {
  readonly lookup: (channelId: string) => Promise<string | null | undefined>;
  readonly asked: string[];
  answer(guildId: string | null | undefined): void;
  fail(error: Error): void;
} {
  const asked: string[] = [];
  const pending: { resolve: (value: string | null | undefined) => void; reject: (error: Error) => void }[] = [];
  return {
    asked,
    lookup: (channelId) =>
      new Promise((resolve, reject) => {
        asked.push(channelId);
        pending.push({ resolve, reject });
      }),
    answer: (guildId) => pending.shift()?.resolve(guildId),
    fail: (error) => pending.shift()?.reject(error),
  };
}

/** Routes `channelId` through `homes`, recording the ring key each route saw or the error it got. */
function place(homes: ChannelHomes, channelId: string, seen: string[], label = channelId): void {
  homes.whenPlaced(
    'channel',
    channelId,
    () => seen.push(`${label} -> ${homes.ringKeyOf('channel', channelId)}`),
    (error: AppError) => seen.push(`${label} !${error.httpStatus}`),
  );
}

const settled = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('placementKeyOf', () => {
  it("places a guild channel or thread by its guild's key, a DM by its own, and other actors by their own", () => {
    assert.equal(placementKeyOf('channel', '10', '7'), 'guild:7');
    assert.equal(placementKeyOf('channel', '11', null), 'channel:11');
    assert.equal(placementKeyOf('channel', '12'), 'channel:12');
    assert.equal(placementKeyOf('guild', '7'), 'guild:7');
    assert.equal(placementKeyOf('user', '3', '7'), 'user:3', 'only channels follow a guild');
    assert.equal(placementKeyOf('voice', '10', '7'), 'voice:10', 'a voice room keeps its own key (pinned apart)');
  });
});

describe('ChannelHomes', () => {
  it('looks a channel up once for every caller meanwhile, runs them in call order, and remembers the guild', async () => {
    const store = heldLookup();
    const homes = new ChannelHomes(store.lookup);
    const seen: string[] = [];
    assert.equal(homes.mustWait('channel', '10', 3), true);
    assert.equal(homes.ringKeyOf('channel', '10'), 'channel:10', 'not placed yet: its own id');
    for (const label of ['a', 'b', 'c']) place(homes, '10', seen, label);
    assert.deepEqual(store.asked, ['10']);
    assert.deepEqual(seen, [], 'nothing routes before the lookup answered');
    store.answer('7');
    await settled();
    assert.deepEqual(seen, ['a -> guild:7', 'b -> guild:7', 'c -> guild:7']);
    assert.equal(homes.mustWait('channel', '10', 3), false);
    place(homes, '10', seen, 'd');
    assert.equal(seen[seen.length - 1], 'd -> guild:7', 'a remembered channel routes at once');
    assert.deepEqual(store.asked, ['10'], 'and is not looked up again');
  });

  it('keeps a call made by a waiter behind the callers already waiting', async () => {
    const store = heldLookup();
    const homes = new ChannelHomes(store.lookup);
    const order: string[] = [];
    homes.whenPlaced(
      'channel',
      '10',
      () => {
        order.push('first');
        assert.equal(homes.mustWait('channel', '10', 3), true, 'still waiting: the second has not run');
        homes.whenPlaced(
          'channel',
          '10',
          () => order.push('made by the first'),
          () => undefined,
        );
      },
      () => undefined,
    );
    homes.whenPlaced(
      'channel',
      '10',
      () => order.push('second'),
      () => undefined,
    );
    store.answer('7');
    await settled();
    assert.deepEqual(order, ['first', 'second', 'made by the first']);
  });

  it('places a DM by its own id', async () => {
    const store = heldLookup();
    const homes = new ChannelHomes(store.lookup);
    const seen: string[] = [];
    place(homes, '11', seen);
    store.answer(null);
    await settled();
    assert.deepEqual(seen, ['11 -> channel:11']);
  });

  it('answers 404 for a channel the store does not know and looks it up again next time (it may be created)', async () => {
    const store = heldLookup();
    const homes = new ChannelHomes(store.lookup);
    const seen: string[] = [];
    place(homes, '12', seen);
    store.answer(undefined);
    await settled();
    assert.deepEqual(seen, ['12 !404']);
    assert.equal(homes.mustWait('channel', '12', 3), true);
    place(homes, '12', seen);
    store.answer('7');
    await settled();
    assert.deepEqual(store.asked, ['12', '12']);
    assert.equal(seen[seen.length - 1], '12 -> guild:7');
  });

  it('answers 503 when the store cannot be read, and tries again on the next call', async () => {
    const store = heldLookup();
    const homes = new ChannelHomes(store.lookup);
    const errors: AppError[] = [];
    homes.whenPlaced(
      'channel',
      '13',
      () => assert.fail('not placed'),
      (error) => errors.push(error),
    );
    store.fail(new Error('cassandra timed out'));
    await settled();
    assert.ok(errors[0] instanceof ServiceUnavailableError);
    assert.match(errors[0].message, /channel:13/);
    assert.doesNotMatch(errors[0].message, /cassandra/, "the driver's words do not reach the client");
    assert.equal(homes.mustWait('channel', '13', 3), true);
    homes.whenPlaced(
      'channel',
      '13',
      () => undefined,
      () => undefined,
    );
    assert.equal(store.asked.length, 2);
  });

  it('needs no lookup for other kinds, in a ring of one member, or without a store', () => {
    const store = heldLookup();
    const homes = new ChannelHomes(store.lookup);
    assert.equal(homes.mustWait('guild', '7', 3), false);
    assert.equal(homes.mustWait('user', '3', 3), false);
    assert.equal(homes.mustWait('channel', '10', 1), false, 'one member: the channel is local whatever its guild');
    assert.equal(new ChannelHomes().mustWait('channel', '10', 3), false);
    assert.equal(new ChannelHomes().knows('channel', '10'), true);
    assert.equal(homes.knows('channel', '10'), false);
    assert.deepEqual(store.asked, []);
  });

  it('forgets the oldest channel when full', async () => {
    const guildOf = new Map([
      ['1', 'g1'],
      ['2', 'g2'],
      ['3', 'g3'],
    ]);
    const asked: string[] = [];
    const homes = new ChannelHomes((id) => {
      asked.push(id);
      return Promise.resolve(guildOf.get(id));
    }, 2);
    const seen: string[] = [];
    for (const id of ['1', '2', '3']) place(homes, id, seen);
    await settled();
    assert.deepEqual(seen, ['1 -> guild:g1', '2 -> guild:g2', '3 -> guild:g3']);
    assert.equal(homes.knows('channel', '1'), false, 'the oldest went');
    assert.equal(homes.knows('channel', '3'), true);
    assert.equal(homes.ringKeyOf('channel', '2'), 'guild:g2');
  });
});
