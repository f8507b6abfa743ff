import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GatewayClient } from '../../support/GatewayClient.js';
import { api, startTestServer, type TestServer } from '../../support/testServer.js';
import { pngBytes, raw } from '../spec/specKit.js';
import { Bits, guildWorld, memberOverwrite, textChannel, type ApiError, type GuildWorld } from './messageFixtures.js';

/** GUILDS | GUILD_MESSAGES | MESSAGE_CONTENT. */
const INTENTS = (1 << 0) | (1 << 9) | (1 << 15);
/** A small cap, so the 413 needs no 25 MiB body. */
const MAX_UPLOAD = 64 * 1024;
const ATTACH_FILES = 1n << 15n;

interface ApiAttachment {
  id: string;
  filename: string;
  size: number;
  url: string;
  proxy_url: string;
  content_type: string;
  description?: string;
  width?: number;
  height?: number;
}
interface MessageWithFiles {
  id: string;
  content: string;
  attachments: ApiAttachment[];
}

/** One part of a form: bytes, the name it is uploaded under, and its declared type. */
interface Part {
  readonly data: Buffer | string;
  readonly name: string;
  readonly type?: string;
}

/** A discord.js-shaped form: payload_json, then files[0], files[1]... */
function messageForm(payload: unknown, parts: readonly Part[]): FormData {
  const form = new FormData();
  form.append('payload_json', JSON.stringify(payload));
  parts.forEach((part, index) => {
    form.append(`files[${index}]`, new Blob([part.data], { type: part.type ?? '' }), part.name);
  });
  return form;
}

/** Every stored blob file under a data dir (the embedded FileBlobStore layout). */
function blobFiles(dataDir: string): string[] {
  return readdirSync(join(dataDir, 'blobs'), { recursive: true, encoding: 'utf8' }).filter((path) =>
    path.endsWith('.blob'),
  );
}

describe('message attachments', function () {
  this.timeout(20_000);
  const dataDir = mkdtempSync(join(tmpdir(), 'chorus-attachments-'));
  let server: TestServer;
  let world: GuildWorld;
  let channel: string;

  before(async () => {
    server = await startTestServer({ CHORUS_DATA_DIR: dataDir, CHORUS_MAX_UPLOAD_BYTES: String(MAX_UPLOAD) });
    world = await guildWorld(server.api);
    channel = await textChannel(server.api, world, 'files');
  });

  after(async () => {
    await server.stop();
  });

  /** Posts (or patches) a form as `token`; resolves with the status and the body (a message or an error). */
  async function submit(path: string, form: FormData, token = world.member.token, method = 'POST') {
    const response = await raw(server.api, method, path, { token, form });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as MessageWithFiles & ApiError };
  }

  async function upload(payload: unknown, parts: readonly Part[]): Promise<MessageWithFiles> {
    const { status, body } = await submit(`/channels/${channel}/messages`, messageForm(payload, parts));
    assert.equal(status, 200, JSON.stringify(body));
    return body;
  }

  it('stores an upload, returns its attachment object and serves the same bytes at its URL', async () => {
    const { client: gateway } = await GatewayClient.identified(server.gatewayUrl, world.owner.token, {
      intents: INTENTS,
    });
    try {
      const text = 'hello, attachments\n';
      const sent = await upload(
        { content: 'see file', attachments: [{ id: '0', filename: 'notes.txt', description: 'my notes' }] },
        [{ data: text, name: 'ignored.txt' }],
      );
      const [attachment] = sent.attachments;
      assert.ok(attachment && /^\d+$/.test(attachment.id));
      assert.equal(attachment.filename, 'notes.txt');
      assert.equal(attachment.description, 'my notes');
      assert.equal(attachment.size, Buffer.byteLength(text));
      assert.equal(attachment.content_type, 'text/plain; charset=utf-8');
      assert.equal(attachment.url, `${server.node.url}/attachments/${channel}/${attachment.id}/notes.txt`);
      assert.equal(attachment.proxy_url, attachment.url);

      const file = await fetch(attachment.url);
      assert.equal(file.status, 200);
      assert.equal(file.headers.get('content-type'), 'text/plain; charset=utf-8');
      assert.equal(file.headers.get('content-length'), String(attachment.size));
      assert.equal(await file.text(), text);

      const created = await gateway.waitForDispatch<MessageWithFiles>('MESSAGE_CREATE', (d) => d.id === sent.id);
      assert.deepEqual(created.d.attachments, sent.attachments);
      const fetched = await api<MessageWithFiles>(server.api, 'GET', `/channels/${channel}/messages/${sent.id}`, {
        token: world.owner.token,
      });
      assert.deepEqual(fetched.attachments, sent.attachments);
    } finally {
      await gateway.close();
    }
  });

  it('accepts a message of attachments only, named by their parts, with image type and size from the bytes', async () => {
    const png = pngBytes(7, 3);
    const sent = await upload({}, [
      { data: png, name: 'pic ture.png', type: 'image/jpg' },
      { data: Buffer.from([0, 1, 2, 255]), name: 'data.bin' },
    ]);
    assert.equal(sent.content, '');
    const [image, binary] = sent.attachments;
    assert.deepEqual(
      { filename: image?.filename, type: image?.content_type, width: image?.width, height: image?.height },
      { filename: 'pic_ture.png', type: 'image/png', width: 7, height: 3 },
    );
    assert.equal(binary?.content_type, 'application/octet-stream');
    assert.equal(binary?.width, undefined);
    const served = Buffer.from(await (await fetch(image?.url ?? '')).arrayBuffer());
    assert.ok(served.equals(png));
    const listed = await api<MessageWithFiles[]>(server.api, 'GET', `/channels/${channel}/messages?limit=5`, {
      token: world.member.token,
    });
    assert.deepEqual(listed.find((message) => message.id === sent.id)?.attachments, sent.attachments);
  });

  it('keeps attachments on an edit that does not list them, and drops those an edit leaves out', async () => {
    const sent = await upload({ content: 'two files' }, [
      { data: 'one', name: 'one.txt' },
      { data: 'two', name: 'two.txt' },
    ]);
    const [one, two] = sent.attachments as [ApiAttachment, ApiAttachment];
    const path = `/channels/${channel}/messages/${sent.id}`;
    const options = { token: world.member.token };
    const renamed = await api<MessageWithFiles>(server.api, 'PATCH', path, { ...options, body: { content: 'x' } });
    assert.deepEqual(renamed.attachments, sent.attachments);
    const trimmed = await api<MessageWithFiles>(server.api, 'PATCH', path, {
      ...options,
      body: { attachments: [{ id: two.id }] },
    });
    assert.deepEqual(trimmed.attachments, [two]);
    const { status, body } = await submit(
      path,
      messageForm({ attachments: [{ id: two.id }, { id: '0' }] }, [{ data: 'three', name: 'three.txt' }]),
      world.member.token,
      'PATCH',
    );
    assert.equal(status, 200, JSON.stringify(body));
    assert.deepEqual(
      body.attachments.map((attachment) => attachment.filename),
      ['two.txt', 'three.txt'],
    );
    assert.equal(await (await fetch(body.attachments[1]?.url ?? '')).text(), 'three');
    const fetched = await api<MessageWithFiles>(server.api, 'GET', path, options);
    assert.deepEqual(fetched.attachments, body.attachments);
    assert.ok(!fetched.attachments.some((attachment) => attachment.id === one.id));
  });

  it('refuses uploads over the size cap with 413 and more than 10 files with 400 naming files', async () => {
    const large = await submit(
      `/channels/${channel}/messages`,
      messageForm({ content: 'big' }, [{ data: Buffer.alloc(MAX_UPLOAD + 1), name: 'big.bin' }]),
    );
    assert.equal(large.status, 413);
    assert.equal(large.body.code, 40_005);
    const parts = Array.from({ length: 11 }, (_, index) => ({ data: `file ${index}`, name: `f${index}.txt` }));
    const many = await submit(`/channels/${channel}/messages`, messageForm({ content: 'many' }, parts));
    assert.equal(many.status, 400);
    assert.equal(many.body.code, 50_035);
    assert.ok(many.body.errors && 'files' in many.body.errors, JSON.stringify(many.body));
  });

  it('refuses an upload without ATTACH_FILES with 403 50013 and keeps none of its bytes', async () => {
    const locked = await textChannel(server.api, world, 'no-files');
    await memberOverwrite(server.api, world, locked, world.member.id, Bits.SEND_MESSAGES, ATTACH_FILES);
    const before = blobFiles(dataDir).length;
    const refused = await submit(
      `/channels/${locked}/messages`,
      messageForm({ content: 'sneaky' }, [{ data: 'secret', name: 'secret.txt' }]),
    );
    assert.equal(refused.status, 403);
    assert.equal(refused.body.code, 50_013);
    assert.equal(blobFiles(dataDir).length, before);
    assert.ok(!blobFiles(dataDir).some((path) => path.includes(locked)));
    // Text alone still goes through.
    await api(server.api, 'POST', `/channels/${locked}/messages`, {
      token: world.member.token,
      body: { content: 'text is fine' },
    });
  });

  it('answers a Discord-shaped 404 for an unknown attachment', async () => {
    const sent = await upload({}, [{ data: 'x', name: 'real.txt' }]);
    const attachment = sent.attachments[0] as ApiAttachment;
    for (const url of [
      `${server.node.url}/attachments/${channel}/${attachment.id}/other.txt`,
      `${server.node.url}/attachments/${channel}/1234567890123456789/real.txt`,
      `${server.node.url}/attachments/${channel}/${attachment.id}/real%20file.txt`,
    ]) {
      const response = await fetch(url);
      assert.equal(response.status, 404, url);
      assert.deepEqual(await response.json(), { code: 0, message: '404: Not Found' });
    }
  });
});
