import assert from 'node:assert/strict';
import { api, startTestServer, type TestServer, type TestUser } from '../../support/testServer.js';
import { guildWorld, send, textChannel, type GuildWorld } from './messageFixtures.js';

/** A cursor above every id: the page it gives is the newest one, read from the store (no recent window). */
const ABOVE_ALL = '9000000000000000000';
const THUMBS = encodeURIComponent('👍');

describe('recent history window', () => {
  let server: TestServer;
  let world: GuildWorld;
  let channel: string;

  /** The page body exactly as sent, as `viewer` reads it. */
  const pageText = async (viewer: TestUser, query: string): Promise<string> => {
    const response = await fetch(`${server.api}/channels/${channel}/messages${query}`, {
      headers: { authorization: viewer.token },
    });
    assert.equal(response.status, 200);
    return response.text();
  };

  /** The window's page and the store's page, byte for byte, for each viewer. */
  const assertSamePages = async (limit = 50): Promise<void> => {
    for (const viewer of [world.owner, world.member]) {
      const fromWindow = await pageText(viewer, `?limit=${limit}`);
      const fromStore = await pageText(viewer, `?limit=${limit}&before=${ABOVE_ALL}`);
      assert.equal(fromWindow, fromStore);
    }
  };

  const messagePath = (id: string) => `/channels/${channel}/messages/${id}`;

  before(async () => {
    server = await startTestServer();
    world = await guildWorld(server.api);
    channel = await textChannel(server.api, world, 'recent');
    for (let index = 0; index < 5; index += 1) await send(server.api, world.member, channel, { content: `m${index}` });
    await assertSamePages(); // fills the window before the changes below
  });

  after(async () => {
    await server.stop();
  });

  it('serves new messages, mentions and replies as the store renders them', async () => {
    await assertSamePages(2); // a page of the same length before and after a send
    const first = await send(server.api, world.owner, channel, { content: 'plain' });
    await send(server.api, world.owner, channel, { content: `hi <@${world.member.id}>` });
    await send(server.api, world.member, channel, { content: 'reply', message_reference: { message_id: first.id } });
    await assertSamePages();
    await assertSamePages(2);
    await assertSamePages(3);
  });

  it('shows an edit at once', async () => {
    const message = await send(server.api, world.member, channel, { content: 'before edit' });
    await assertSamePages();
    await api(server.api, 'PATCH', messagePath(message.id), { token: world.member.token, body: { content: 'edited' } });
    await assertSamePages();
    assert.match(await pageText(world.owner, '?limit=1'), /"content":"edited"/);
  });

  it('shows reactions with `me` for each viewer, and their removal', async () => {
    const message = await send(server.api, world.member, channel, { content: 'react to me' });
    await assertSamePages();
    const reaction = `${messagePath(message.id)}/reactions/${THUMBS}/@me`;
    await api(server.api, 'PUT', reaction, { token: world.member.token, expect: 204 });
    await assertSamePages();
    await api(server.api, 'PUT', reaction, { token: world.owner.token, expect: 204 });
    await assertSamePages();
    assert.match(await pageText(world.owner, '?limit=1'), /"count":2,/);
    await api(server.api, 'DELETE', reaction, { token: world.member.token, expect: 204 });
    await assertSamePages();
  });

  it('shows pins and deletions', async () => {
    const pinned = await send(server.api, world.member, channel, { content: 'pin me' });
    const doomed = await send(server.api, world.member, channel, { content: 'delete me' });
    await assertSamePages();
    await api(server.api, 'PUT', `/channels/${channel}/pins/${pinned.id}`, { token: world.owner.token, expect: 204 });
    await assertSamePages();
    await api(server.api, 'DELETE', messagePath(doomed.id), { token: world.member.token, expect: 204 });
    await assertSamePages();
    assert.doesNotMatch(await pageText(world.owner, ''), /delete me/);
  });

  it('keeps only the newest 100 and still pages past them from the store', async () => {
    for (let index = 0; index < 110; index += 1) await send(server.api, world.owner, channel, { content: `n${index}` });
    await assertSamePages(100);
    const page = JSON.parse(await pageText(world.owner, '?limit=100')) as { content: string }[];
    assert.equal(page[0]?.content, 'n109');
    assert.equal(page[99]?.content, 'n10');
  });
});
