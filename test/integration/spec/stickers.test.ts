import assert from 'node:assert/strict';
import { Permission } from '../../../src/domain/permissions.js';
import {
  EXPRESSION_INTENTS,
  api,
  connect,
  errorFields,
  fails,
  gifBytes,
  grant,
  guildWithMember,
  member,
  pngBytes,
  raw,
  registerUser,
  sendForm,
  startHarness,
  stickerForm,
  type ApiError,
  type GuildHarness,
  type TestGuild,
  type TestUser,
} from './specKit.js';

interface ApiSticker {
  id: string;
  name: string;
  tags: string;
  description: string | null;
  type: number;
  format_type: number;
  guild_id: string;
  available: boolean;
  user?: { id: string };
}

const PNG = { data: pngBytes(), name: 'sticker.png', type: 'image/png' };

describe('guild stickers', function () {
  this.timeout(30_000);
  let h: GuildHarness;
  let target: TestGuild;
  let user: TestUser;
  let stickersPath: string;

  before(async () => {
    h = await startHarness();
    ({ target, user } = await guildWithMember(h, 'Sticker Guild'));
    stickersPath = `/guilds/${target.guild.id}/stickers`;
  });

  after(async () => {
    await h.stop();
  });

  const upload = (by: TestUser, fields: Record<string, string>, file = PNG, status = 201) =>
    sendForm<ApiSticker>(h.api, stickersPath, by.token, stickerForm(fields, file), status);

  it('creates a sticker from a multipart upload and tells GUILD_STICKERS_UPDATE', async () => {
    const client = await connect(h.gatewayUrl, user, EXPRESSION_INTENTS);
    try {
      const sticker = await upload(target.owner, { name: 'wave', tags: 'wave', description: 'hello' });
      assert.equal(sticker.name, 'wave');
      assert.equal(sticker.tags, 'wave');
      assert.equal(sticker.description, 'hello');
      assert.equal(sticker.type, 2);
      assert.equal(sticker.format_type, 1);
      assert.equal(sticker.guild_id, target.guild.id);
      assert.equal(sticker.user?.id, target.owner.id);
      const update = await client.waitForDispatch<{ guild_id: string; stickers: ApiSticker[] }>(
        'GUILD_STICKERS_UPDATE',
        (d) => d.stickers.some((s) => s.id === sticker.id),
      );
      assert.equal(update.d.guild_id, target.guild.id);
      const listed = await api<ApiSticker[]>(h.api, 'GET', stickersPath, { token: user.token });
      assert.ok(listed.some((s) => s.id === sticker.id));
      const guild = await api<{ stickers: ApiSticker[] }>(h.api, 'GET', `/guilds/${target.guild.id}`, {
        token: user.token,
      });
      assert.ok(
        guild.stickers.some((s) => s.id === sticker.id),
        'the guild object lists its stickers',
      );
    } finally {
      await client.close();
    }
  });

  it('reads the format from the file bytes (GIF is 4), not the declared type', async () => {
    const sticker = await upload(
      target.owner,
      { name: 'gifsticker', tags: 'gif' },
      {
        data: gifBytes(),
        name: 'x.png',
        type: 'image/png',
      },
    );
    assert.equal(sticker.format_type, 4);
  });

  it('lets any signed-in user read a sticker by id, and forgets it once deleted', async () => {
    const sticker = await upload(target.owner, { name: 'public', tags: 'public' });
    const outsider = await registerUser(h.api, 'outsider');
    const seen = await api<ApiSticker>(h.api, 'GET', `/stickers/${sticker.id}`, { token: outsider.token });
    assert.equal(seen.name, 'public');
    assert.equal(seen.user, undefined);
    await fails(h.api, 'GET', `${stickersPath}/${sticker.id}`, outsider, 404, 10_004);
    await api(h.api, 'DELETE', `${stickersPath}/${sticker.id}`, { token: target.owner.token, expect: 204 });
    await fails(h.api, 'GET', `/stickers/${sticker.id}`, outsider, 404, 10_060);
    await fails(h.api, 'GET', `${stickersPath}/${sticker.id}`, user, 404, 10_060);
    await fails(h.api, 'GET', `/stickers/${sticker.id}`, undefined, 401, 0);
  });

  it('modifies a sticker with a JSON body', async () => {
    const sticker = await upload(target.owner, { name: 'before', tags: 'x' });
    const changed = await api<ApiSticker>(h.api, 'PATCH', `${stickersPath}/${sticker.id}`, {
      token: target.owner.token,
      body: { name: 'after', tags: 'y', description: 'changed' },
    });
    assert.equal(changed.name, 'after');
    assert.equal(changed.tags, 'y');
    assert.equal(changed.description, 'changed');
    const one = await api<ApiSticker>(h.api, 'GET', `${stickersPath}/${sticker.id}`, { token: user.token });
    assert.equal(one.name, 'after');
  });

  describe('permissions', () => {
    it('refuses create, modify and delete without MANAGE_GUILD_EXPRESSIONS (403 50013)', async () => {
      const sticker = await upload(target.owner, { name: 'guarded', tags: 'x' });
      const denied = await sendForm<ApiError>(
        h.api,
        stickersPath,
        user.token,
        stickerForm({ name: 'no', tags: 'x' }, PNG),
        403,
      );
      assert.equal(denied.code, 50_013);
      await fails(h.api, 'PATCH', `${stickersPath}/${sticker.id}`, user, 403, 50_013, { name: 'nope', tags: 'x' });
      await fails(h.api, 'DELETE', `${stickersPath}/${sticker.id}`, user, 403, 50_013);
    });

    it('lets a member holding MANAGE_GUILD_EXPRESSIONS create one', async () => {
      const manager = await member(h.api, target, 'manager');
      await grant(h.api, target, manager, Permission.MANAGE_GUILD_EXPRESSIONS, 'expressions');
      const sticker = await upload(manager, { name: 'managed', tags: 'm' });
      assert.equal(sticker.user?.id, manager.id);
    });

    it('answers 401 to an anonymous upload', async () => {
      const response = await raw(h.api, 'POST', stickersPath, { form: stickerForm({ name: 'anon', tags: 'x' }, PNG) });
      assert.equal(response.status, 401);
    });
  });

  describe('validation (50035 naming the field)', () => {
    const invalid = async (fields: Record<string, string>, file: typeof PNG | undefined, field: string) => {
      const error = await sendForm<ApiError>(h.api, stickersPath, target.owner.token, stickerForm(fields, file), 400);
      assert.equal(error.code, 50_035);
      assert.deepEqual(Object.keys(error.errors ?? {}), [field], JSON.stringify(error));
    };

    it('requires a name of 2..30 and tags', async () => {
      await invalid({ name: 'x', tags: 'x' }, PNG, 'name');
      await invalid({ name: 'y'.repeat(31), tags: 'x' }, PNG, 'name');
      await invalid({ name: 'notags' }, PNG, 'tags');
    });

    it('requires the file, small enough and of a sticker format', async () => {
      await invalid({ name: 'nofile', tags: 'x' }, undefined, 'file');
      await invalid(
        { name: 'text', tags: 'x' },
        { data: Buffer.from('plain text'), name: 'a.txt', type: 'text/plain' },
        'file',
      );
      const jpeg = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(64)]);
      await invalid({ name: 'jpeg', tags: 'x' }, { data: jpeg, name: 'a.jpg', type: 'image/jpeg' }, 'file');
      const huge = Buffer.concat([pngBytes(), Buffer.alloc(600 * 1024)]);
      await invalid({ name: 'huge', tags: 'x' }, { data: huge, name: 'a.png', type: 'image/png' }, 'file');
    });

    it('validates a modification body', async () => {
      const sticker = await upload(target.owner, { name: 'valid', tags: 'x' });
      const error = await fails(h.api, 'PATCH', `${stickersPath}/${sticker.id}`, target.owner, 400, 50_035, {
        name: 'renamed',
        tags: 'x',
        description: 'd'.repeat(101),
      });
      assert.deepEqual(errorFields(error), ['description']);
    });
  });
});
