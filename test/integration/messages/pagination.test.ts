import assert from 'node:assert/strict';
import { snowflakeAt } from '../../../src/domain/snowflake.js';
import { api, startTestServer, type TestServer } from '../../support/testServer.js';
import { fails, guildWorld, send, textChannel, type ApiMessage, type GuildWorld } from './messageFixtures.js';

describe('message pagination', () => {
  let server: TestServer;
  let world: GuildWorld;
  let channel: string;
  /** Ids of m0..m9, oldest first. */
  const ids: string[] = [];

  const page = async (query: string): Promise<string[]> => {
    const listing = await api<ApiMessage[]>(server.api, 'GET', `/channels/${channel}/messages${query}`, {
      token: world.member.token,
    });
    return listing.map((message) => message.id);
  };
  const newestFirst = (slice: string[]): string[] => [...slice].reverse();

  before(async () => {
    server = await startTestServer();
    world = await guildWorld(server.api);
    channel = await textChannel(server.api, world, 'history');
    for (let index = 0; index < 10; index += 1) {
      ids.push((await send(server.api, world.member, channel, { content: `m${index}` })).id);
    }
  });

  after(async () => {
    await server.stop();
  });

  it('lists the newest messages first, 50 by default', async () => {
    assert.deepEqual(await page(''), newestFirst(ids));
  });

  it('honours limit', async () => {
    assert.deepEqual(await page('?limit=3'), newestFirst(ids.slice(7)));
  });

  it('pages backwards with before', async () => {
    assert.deepEqual(await page(`?before=${ids[7]}&limit=3`), newestFirst(ids.slice(4, 7)));
  });

  it('pages forwards with after, still newest first', async () => {
    assert.deepEqual(await page(`?after=${ids[2]}&limit=3`), newestFirst(ids.slice(3, 6)));
  });

  it('reads around a message, including it', async () => {
    // The newer half (with the message itself) gets ceil(limit / 2), the older half the rest.
    assert.deepEqual(await page(`?around=${ids[5]}&limit=4`), newestFirst(ids.slice(3, 7)));
    assert.deepEqual(await page(`?around=${ids[5]}&limit=5`), newestFirst(ids.slice(3, 8)));
    assert.deepEqual(await page(`?around=${ids[5]}&limit=1`), [ids[5]]);
  });

  it('accepts a synthetic timestamp snowflake as a cursor', async () => {
    assert.deepEqual(await page(`?before=${snowflakeAt(Date.now() + 60_000)}&limit=2`), newestFirst(ids.slice(8)));
    assert.deepEqual(await page(`?after=${snowflakeAt(Date.now() + 60_000)}`), []);
  });

  it('refuses limits outside 1..100 and a cursor that is no snowflake', async () => {
    assert.equal(
      (await fails(server.api, 'GET', `/channels/${channel}/messages?limit=0`, world.member, 400)).code,
      50_035,
    );
    assert.equal(
      (await fails(server.api, 'GET', `/channels/${channel}/messages?limit=101`, world.member, 400)).code,
      50_035,
    );
    assert.equal(
      (await fails(server.api, 'GET', `/channels/${channel}/messages?before=abc`, world.member, 400)).code,
      50_035,
    );
  });
});
