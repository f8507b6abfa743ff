import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  api,
  fails,
  gifBytes,
  guildWithMember,
  pngBytes,
  registerUser,
  sendForm,
  startHarness,
  stickerForm,
  type GuildHarness,
  type TestGuild,
  type TestUser,
} from './specKit.js';

const dataUri = (type: string, data: Buffer) => `data:${type};base64,${data.toString('base64')}`;

describe('image CDN paths', function () {
  this.timeout(30_000);
  let h: GuildHarness;
  let cdn: string;
  let target: TestGuild;
  let user: TestUser;

  before(async () => {
    h = await startHarness();
    cdn = h.node.url;
    ({ target, user } = await guildWithMember(h, 'Image Guild'));
  });

  after(async () => {
    await h.stop();
  });

  /** GETs a CDN path and checks it serves `data` as `type`, sandboxed and cacheable forever. */
  async function assertServes(path: string, data: Buffer, type: string): Promise<void> {
    const response = await fetch(`${cdn}${path}`);
    assert.equal(response.status, 200, `GET ${path}`);
    assert.equal(response.headers.get('content-type'), type);
    assert.equal(response.headers.get('content-length'), String(data.length));
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff');
    assert.match(response.headers.get('content-security-policy') ?? '', /sandbox/);
    assert.match(response.headers.get('cache-control') ?? '', /immutable/);
    assert.deepEqual(Buffer.from(await response.arrayBuffer()), data);
  }

  async function assertMissing(path: string): Promise<void> {
    const response = await fetch(`${cdn}${path}`);
    assert.equal(response.status, 404, `GET ${path}`);
    assert.deepEqual(await response.json(), { code: 0, message: '404: Not Found' });
  }

  it('serves a new avatar at /avatars/{user_id}/{hash}.png, with or without ?size', async () => {
    const png = pngBytes(8, 8);
    const me = await api<{ avatar: string }>(h.api, 'PATCH', '/users/@me', {
      token: user.token,
      body: { avatar: dataUri('image/png', png) },
    });
    assert.match(me.avatar, /^[0-9a-f]{32}$/);
    await assertServes(`/avatars/${user.id}/${me.avatar}.png`, png, 'image/png');
    await assertServes(`/avatars/${user.id}/${me.avatar}.png?size=128`, png, 'image/png');
    // No conversion: the original bytes for any extension, with their real type.
    await assertServes(`/avatars/${user.id}/${me.avatar}.webp?size=64`, png, 'image/png');
  });

  it('serves an animated avatar under its a_ hash', async () => {
    const gif = gifBytes();
    const me = await api<{ avatar: string }>(h.api, 'PATCH', '/users/@me', {
      token: user.token,
      body: { avatar: dataUri('image/gif', gif) },
    });
    assert.match(me.avatar, /^a_[0-9a-f]{32}$/);
    await assertServes(`/avatars/${user.id}/${me.avatar}.gif`, gif, 'image/gif');
  });

  it('serves a user banner at /banners/{user_id}/{hash}.png', async () => {
    const png = pngBytes(12, 4);
    const me = await api<{ banner: string }>(h.api, 'PATCH', '/users/@me', {
      token: user.token,
      body: { banner: dataUri('image/png', png) },
    });
    await assertServes(`/banners/${user.id}/${me.banner}.png`, png, 'image/png');
  });

  it('keeps nothing of an image whose change is refused', async () => {
    const png = pngBytes(5, 7);
    await fails(h.api, 'PATCH', `/guilds/${target.guild.id}`, user, 403, 50_013, { icon: dataUri('image/png', png) });
    const hash = createHash('md5').update(png).digest('hex');
    await assertMissing(`/icons/${target.guild.id}/${hash}.png`);
  });

  it('serves guild icons set at creation and by PATCH, and splashes', async () => {
    const owner = await registerUser(h.api, 'iconowner');
    const icon = pngBytes(16, 16);
    const guild = await api<{ id: string; icon: string }>(h.api, 'POST', '/guilds', {
      token: owner.token,
      body: { name: 'Iconic', icon: dataUri('image/png', icon) },
      expect: 201,
    });
    await assertServes(`/icons/${guild.id}/${guild.icon}.png?size=96`, icon, 'image/png');
    const splash = pngBytes(20, 10);
    const updated = await api<{ icon: string; splash: string }>(h.api, 'PATCH', `/guilds/${guild.id}`, {
      token: owner.token,
      body: { icon: dataUri('image/png', pngBytes(6, 6)), splash: dataUri('image/png', splash) },
    });
    await assertServes(`/icons/${guild.id}/${updated.icon}.png`, pngBytes(6, 6), 'image/png');
    await assertServes(`/splashes/${guild.id}/${updated.splash}.png`, splash, 'image/png');
  });

  it('serves an emoji image at /emojis/{id}.png and a sticker at /stickers/{id}.png', async () => {
    const png = pngBytes(32, 32);
    const emoji = await api<{ id: string }>(h.api, 'POST', `/guilds/${target.guild.id}/emojis`, {
      token: target.owner.token,
      body: { name: 'served', image: dataUri('image/png', png) },
      expect: 201,
    });
    await assertServes(`/emojis/${emoji.id}.png?size=48`, png, 'image/png');
    await assertServes(`/emojis/${emoji.id}.webp`, png, 'image/png');
    const sticker = await sendForm<{ id: string }>(
      h.api,
      `/guilds/${target.guild.id}/stickers`,
      target.owner.token,
      stickerForm({ name: 'served', tags: 'smile' }, { data: png, name: 'sticker.png', type: 'image/png' }),
      201,
    );
    await assertServes(`/stickers/${sticker.id}.png`, png, 'image/png');
  });

  it('forgets an emoji image once the emoji is deleted', async () => {
    const emoji = await api<{ id: string }>(h.api, 'POST', `/guilds/${target.guild.id}/emojis`, {
      token: target.owner.token,
      body: { name: 'fleeting', image: dataUri('image/png', pngBytes(2, 2)) },
      expect: 201,
    });
    await api(h.api, 'DELETE', `/guilds/${target.guild.id}/emojis/${emoji.id}`, {
      token: target.owner.token,
      expect: 204,
    });
    await assertMissing(`/emojis/${emoji.id}.png`);
  });

  it('answers a Discord 404 for unknown images and malformed paths', async () => {
    await assertMissing(`/avatars/${user.id}/${'0'.repeat(32)}.png`);
    await assertMissing(`/avatars/${user.id}/not-a-hash.png`);
    await assertMissing(`/avatars/nope/${'0'.repeat(32)}.png`);
    await assertMissing(`/emojis/123.png`);
    await assertMissing(`/stickers/../etc.png`);
    await assertMissing(`/icons/${target.guild.id}/${'0'.repeat(32)}.bmp`);
  });
});
