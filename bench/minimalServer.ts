// The least a server can do for a message POST, on Koa (`koa`) or on node:http alone (`node`): read the body with
// listeners, answer the same message object the bare baseline answers. bench/edgeOverhead.ts compares them, so
// what Koa itself costs a request is measured rather than guessed. Prints {"port":N} once listening.
import { createServer, type IncomingMessage } from 'node:http';
import Koa from 'koa';

let nextId = 1n;

function readJson(req: IncomingMessage): Promise<{ content?: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as { content?: string });
    });
    req.on('error', reject);
  });
}

function messageText(content: string | undefined, url: string): string {
  return JSON.stringify({
    type: 0,
    content: content ?? '',
    timestamp: new Date().toISOString(),
    id: String(nextId++),
    channel_id: url.split('/').at(-2),
    author: { id: '1575452680476688384', username: 'bare-author', discriminator: '0001', public_flags: 0 },
  });
}

const onKoa = process.argv[2] === 'koa';
const app = new Koa();
app.use(async (ctx) => {
  const body = await readJson(ctx.req);
  ctx.set('Content-Type', 'application/json');
  ctx.body = messageText(body.content, ctx.url);
});
const koaHandler = app.callback();
const server = createServer((req, res) => {
  if (onKoa) {
    void koaHandler(req, res);
    return;
  }
  void readJson(req).then((body) => {
    const text = messageText(body.content, req.url ?? '');
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) }).end(text);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 })}\n`);
});
