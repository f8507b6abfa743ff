// The baseline: a bare Koa + ws server doing the least possible work for the same requests Chorus gets
// (POST a message → JSON reply, and broadcast one pre-serialized frame to every socket; an op 3 status frame
// goes to every other socket as a PRESENCE_UPDATE; GET …/messages?limit=N → the last N messages, newest first).
import { createServer } from 'node:http';
import Koa from 'koa';
import { WebSocketServer, type WebSocket } from 'ws';

const port = Number(process.argv[2] ?? 0);
const app = new Koa();
const sockets = new Set<WebSocket>();
let seq = 0;
let nextId = 1n;
/**
 * Every field a Discord message object carries (Chorus answers these), so the baseline sends the same bytes
 * per message: the response size is the API's, not the implementation's, and socket writes cost by the byte.
 */
const MESSAGE_FIELDS = {
  type: 0,
  mentions: [],
  mention_roles: [],
  attachments: [],
  embeds: [],
  edited_timestamp: null,
  flags: 0,
  components: [],
  pinned: false,
  mention_everyone: false,
  tts: false,
  reactions: [],
};
const AUTHOR = {
  id: '1575452680476688384',
  username: 'bare-author',
  discriminator: '0001',
  global_name: null,
  avatar: null,
  avatar_decoration_data: null,
  banner: null,
  accent_color: null,
  public_flags: 0,
};
/**
 * What a guild's MESSAGE_CREATE adds to the message (Discord's extra fields: channel_type, guild_id and the
 * author's member object, which Chorus sends with its user as Spacebar's web clients need): the event frame
 * carries the same bytes as Chorus's, as the reply does.
 */
const GUILD_EVENT_FIELDS = JSON.stringify({
  channel_type: 0,
  guild_id: '1575452680472494080',
  member: {
    user: AUTHOR,
    nick: null,
    avatar: null,
    banner: null,
    roles: [],
    joined_at: '2026-01-01T00:00:00.000Z',
    premium_since: null,
    deaf: false,
    mute: false,
    pending: false,
    flags: 0,
    communication_disabled_until: null,
  },
}).slice(1, -1);
/** The last 100 messages posted, newest first, serialized once (the history a GET pages). */
const history: string[] = [];

app.use(async (ctx) => {
  if (ctx.method === 'POST') {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req as AsyncIterable<Buffer>) chunks.push(chunk);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { content?: string };
    const message = JSON.stringify({
      ...MESSAGE_FIELDS,
      content: body.content ?? '',
      timestamp: new Date().toISOString(),
      id: String(nextId++),
      channel_id: ctx.path.split('/').at(-2),
      author: AUTHOR,
    });
    history.unshift(message);
    if (history.length > 100) history.pop();
    seq += 1;
    const frame = `{"op":0,"t":"MESSAGE_CREATE","s":${seq},"d":${message.slice(0, -1)},${GUILD_EVENT_FIELDS}}}`;
    for (const socket of sockets) socket.send(frame);
    ctx.type = 'application/json';
    ctx.body = message;
    return;
  }
  if (ctx.path.endsWith('/messages')) {
    ctx.type = 'application/json';
    ctx.body = `[${history.slice(0, Number(ctx.query.limit ?? 50)).join(',')}]`;
    return;
  }
  ctx.body = { ok: true };
});

const handle = app.callback();
const server = createServer((request, response) => {
  void handle(request, response);
});
const wss = new WebSocketServer({ server });
wss.on('connection', (socket) => {
  sockets.add(socket);
  socket.on('close', () => {
    sockets.delete(socket);
  });
  socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: 41_250 } }));
  const userId = String(nextId++);
  socket.on('message', (data: Buffer) => {
    const payload = JSON.parse(data.toString()) as { op: number; d?: { status?: unknown; activities?: unknown } };
    if (payload.op !== 3) {
      socket.send(JSON.stringify({ op: 0, t: 'READY', s: 1, d: {} }));
      return;
    }
    // A status change goes to every other socket (the presence-churn row's bare counterpart).
    seq += 1;
    const presence = { user: { id: userId }, status: payload.d?.status, activities: payload.d?.activities ?? [] };
    const frame = `{"op":0,"t":"PRESENCE_UPDATE","s":${seq},"d":${JSON.stringify(presence)}}`;
    for (const other of sockets) if (other !== socket) other.send(frame);
  });
});
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${JSON.stringify({ port: typeof address === 'object' && address ? address.port : port })}\n`);
});
