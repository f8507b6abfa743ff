import assert from 'node:assert/strict';
import { guildWorld, textChannel, type GuildWorld } from '../integration/messages/messageFixtures.js';
import { pngBytes, raw, sendForm, stickerForm } from '../integration/spec/specKit.js';
import { api, startTestServer, type TestServer } from '../support/testServer.js';

interface SentMessage {
  readonly id: string;
  readonly attachments: { readonly id: string; readonly url: string }[];
}

const dataUri = (png: Buffer): string => `data:image/png;base64,${png.toString('base64')}`;

/** A discord.js-shaped message form: payload_json, then one files[N] part per text file. */
function messageForm(payload: unknown, files: readonly string[]): FormData {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(payload));
  files.forEach((text, index) => {
    form.append(`files[${index}]`, new Blob([text], { type: 'text/plain' }), `file${index}.txt`);
  });
  return form;
}

describe('deleted files are no longer served', function () {
  this.timeout(30_000);
  let server: TestServer;
  let world: GuildWorld;
  let channel: string;

  before(async () => {
    server = await startTestServer();
    world = await guildWorld(server.api);
    channel = await textChannel(server.api, world, 'files');
  });

  after(async () => {
    await server.stop();
  });

  /** The status a CDN URL answers (never a 500: that fails the test on the spot). */
  async function statusOf(url: string): Promise<number> {
    const response = await fetch(url);
    await response.arrayBuffer();
    assert.ok(response.status < 500, `GET ${url} answered ${response.status}`);
    return response.status;
  }

  /** Asserts what each CDN path (or full URL) answers now. */
  async function assertServed(expected: Record<string, number>): Promise<void> {
    const actual: Record<string, number> = {};
    for (const path of Object.keys(expected)) {
      actual[path] = await statusOf(path.startsWith('http') ? path : `${server.node.url}${path}`);
    }
    assert.deepEqual(actual, expected);
  }

  /** Posts a message with text files as `token` (to `path`, a channel's messages by default). */
  async function upload(files: readonly string[], token = world.member.token, path = `/channels/${channel}/messages`) {
    const response = await raw(server.api, 'POST', path, { token, form: messageForm({ content: 'files' }, files) });
    const text = await response.text();
    assert.equal(response.status, 200, text);
    const sent = JSON.parse(text) as SentMessage;
    await assertServed(Object.fromEntries(sent.attachments.map((attachment) => [attachment.url, 200])));
    return sent;
  }

  const urls = (sent: SentMessage): string[] => sent.attachments.map((attachment) => attachment.url);

  it('stops serving a message attachment once the message is deleted, and not before', async () => {
    const sent = await upload(['secret one'], world.owner.token);
    const message = `/channels/${channel}/messages/${sent.id}`;
    // A member without MANAGE_MESSAGES, and someone outside the guild, may not delete it: the bytes stay.
    await api(server.api, 'DELETE', message, { token: world.member.token, expect: 403 });
    const outsider = await raw(server.api, 'DELETE', message, { token: world.outsider.token });
    assert.ok([403, 404].includes(outsider.status), `outsider delete answered ${outsider.status}`);
    await assertServed({ [urls(sent)[0] ?? '']: 200 });
    await api(server.api, 'DELETE', message, { token: world.owner.token, expect: 204 });
    await assertServed({ [urls(sent)[0] ?? '']: 404 });
  });

  it('stops serving the file of a member message a moderator deletes', async () => {
    const sent = await upload(['moderated']);
    await api(server.api, 'DELETE', `/channels/${channel}/messages/${sent.id}`, {
      token: world.owner.token,
      expect: 204,
    });
    await assertServed({ [urls(sent)[0] ?? '']: 404 });
  });

  it('stops serving the attachments an edit drops and keeps those it keeps', async () => {
    const sent = await upload(['dropped', 'kept']);
    const [dropped, kept] = sent.attachments as [SentMessage['attachments'][0], SentMessage['attachments'][0]];
    const path = `/channels/${channel}/messages/${sent.id}`;
    await api(server.api, 'PATCH', path, { token: world.member.token, body: { attachments: [{ id: kept.id }] } });
    await assertServed({ [dropped.url]: 404, [kept.url]: 200 });
    await api(server.api, 'PATCH', path, { token: world.member.token, body: { attachments: [] } });
    await assertServed({ [kept.url]: 404 });
  });

  it('keeps the files of an edit that is refused', async () => {
    const sent = await upload(['only file']);
    const path = `/channels/${channel}/messages/${sent.id}`;
    // Dropping the only attachment of a message with no other content would leave it empty (400 50006)...
    const empty = await raw(server.api, 'POST', `/channels/${channel}/messages`, {
      token: world.member.token,
      form: messageForm({}, ['alone']),
    });
    const alone = (await empty.json()) as SentMessage;
    await api(server.api, 'PATCH', `/channels/${channel}/messages/${alone.id}`, {
      token: world.member.token,
      body: { attachments: [] },
      expect: 400,
    });
    // ...and nobody but the author may edit.
    await api(server.api, 'PATCH', path, { token: world.owner.token, body: { attachments: [] }, expect: 403 });
    await assertServed({ [urls(sent)[0] ?? '']: 200, [urls(alone)[0] ?? '']: 200 });
  });

  it('stops serving every attachment of a bulk delete, and keeps them when the bulk delete is refused', async () => {
    const first = await upload(['bulk a', 'bulk b']);
    const second = await upload(['bulk c']);
    const body = { messages: [first.id, second.id] };
    const bulk = `/channels/${channel}/messages/bulk-delete`;
    await api(server.api, 'POST', bulk, { token: world.member.token, body, expect: 403 });
    await assertServed(Object.fromEntries([...urls(first), ...urls(second)].map((url) => [url, 200])));
    await api(server.api, 'POST', bulk, { token: world.owner.token, body, expect: 204 });
    await assertServed(Object.fromEntries([...urls(first), ...urls(second)].map((url) => [url, 404])));
  });

  it('stops serving the attachment of a webhook message deleted by token', async () => {
    const hook = await api<{ id: string; token: string }>(server.api, 'POST', `/channels/${channel}/webhooks`, {
      token: world.owner.token,
      body: { name: 'Uploader' },
    });
    const execute = `/webhooks/${hook.id}/${hook.token}`;
    const sent = await upload(['from a hook'], world.owner.token, `${execute}?wait=true`);
    await api(server.api, 'DELETE', `${execute}/messages/${sent.id}`, { expect: 204 });
    await assertServed({ [urls(sent)[0] ?? '']: 404 });
  });

  it('stops serving a replaced or cleared avatar and banner, and serves the new one', async () => {
    const user = world.member;
    const set = (body: Record<string, unknown>) =>
      api<{ avatar: string | null; banner: string | null }>(server.api, 'PATCH', '/users/@me', {
        token: user.token,
        body,
      });
    const first = await set({ avatar: dataUri(pngBytes(3, 3)), banner: dataUri(pngBytes(9, 3)) });
    const second = await set({ avatar: dataUri(pngBytes(4, 3)) });
    await assertServed({
      [`/avatars/${user.id}/${first.avatar}.png`]: 404,
      [`/avatars/${user.id}/${second.avatar}.png`]: 200,
      [`/banners/${user.id}/${first.banner}.png`]: 200,
    });
    // Setting the same picture again keeps it.
    await set({ avatar: dataUri(pngBytes(4, 3)) });
    await assertServed({ [`/avatars/${user.id}/${second.avatar}.png`]: 200 });
    await set({ avatar: null, banner: null });
    await assertServed({
      [`/avatars/${user.id}/${second.avatar}.png`]: 404,
      [`/banners/${user.id}/${first.banner}.png`]: 404,
    });
  });

  it('stops serving a replaced guild icon, a replaced role icon and the icon of a deleted role', async () => {
    const guild = `/guilds/${world.guildId}`;
    const owner = { token: world.owner.token };
    const setIcon = (path: string, png: Buffer) =>
      api<{ icon: string }>(server.api, 'PATCH', path, { ...owner, body: { icon: dataUri(png) } });
    const oldIcon = await setIcon(guild, pngBytes(5, 5));
    const newIcon = await setIcon(guild, pngBytes(6, 5));
    const role = await api<{ id: string }>(server.api, 'POST', `${guild}/roles`, {
      ...owner,
      body: { name: 'iconic' },
    });
    const oldRoleIcon = await setIcon(`${guild}/roles/${role.id}`, pngBytes(7, 5));
    const newRoleIcon = await setIcon(`${guild}/roles/${role.id}`, pngBytes(8, 5));
    await assertServed({
      [`/icons/${world.guildId}/${oldIcon.icon}.png`]: 404,
      [`/icons/${world.guildId}/${newIcon.icon}.png`]: 200,
      [`/role-icons/${role.id}/${oldRoleIcon.icon}.png`]: 404,
      [`/role-icons/${role.id}/${newRoleIcon.icon}.png`]: 200,
    });
    await api(server.api, 'DELETE', `${guild}/roles/${role.id}`, { ...owner, expect: 204 });
    await assertServed({ [`/role-icons/${role.id}/${newRoleIcon.icon}.png`]: 404 });
  });

  it('stops serving a deleted emoji and sticker, and keeps them when the delete is refused', async () => {
    const guild = `/guilds/${world.guildId}`;
    const emoji = await api<{ id: string }>(server.api, 'POST', `${guild}/emojis`, {
      token: world.owner.token,
      body: { name: 'doomed', image: dataUri(pngBytes(8, 8)) },
      expect: 201,
    });
    const sticker = await sendForm<{ id: string }>(
      server.api,
      `${guild}/stickers`,
      world.owner.token,
      stickerForm({ name: 'doomed', tags: 'x' }, { data: pngBytes(9, 9), name: 's.png', type: 'image/png' }),
      201,
    );
    const paths = { emoji: `/emojis/${emoji.id}.png`, sticker: `/stickers/${sticker.id}.png` };
    await api(server.api, 'DELETE', `${guild}/emojis/${emoji.id}`, { token: world.member.token, expect: 403 });
    await api(server.api, 'DELETE', `${guild}/stickers/${sticker.id}`, { token: world.member.token, expect: 403 });
    await assertServed({ [paths.emoji]: 200, [paths.sticker]: 200 });
    await api(server.api, 'DELETE', `${guild}/emojis/${emoji.id}`, { token: world.owner.token, expect: 204 });
    await api(server.api, 'DELETE', `${guild}/stickers/${sticker.id}`, { token: world.owner.token, expect: 204 });
    await assertServed({ [paths.emoji]: 404, [paths.sticker]: 404 });
  });
});
