// The page's sockets (voice.md §1a): a JSON WebSocket whose messages can be awaited, the main gateway session that
// asks to join a voice channel (op 4) and gets VOICE_STATE_UPDATE and VOICE_SERVER_UPDATE, and the log of what was
// sent and received, which a failing test prints to show the step the server missed.
/* global performance, WebSocket, setInterval */

const LOG_LIMIT = 300;
/** Recent messages both ways (and peer connection states), oldest dropped first. */
export const log = [];
/** Errors caught in the page outside a join() (renegotiation, media playback). */
export const errors = [];

/** Adds one entry to the log, stamped with the page's clock. */
export function record(entry) {
  log.push({ at: Math.round(performance.now()), ...entry });
  if (log.length > LOG_LIMIT) log.shift();
}

/** A WebSocket whose JSON messages can be awaited by predicate (each message is seen by every waiter). */
export function jsonSocket(url, name, onMessage) {
  const ws = new WebSocket(url);
  const waiters = [];
  const seen = [];
  const closed = new Promise((resolve) => {
    ws.addEventListener('close', (event) => {
      record({ socket: name, closed: event.code, reason: event.reason });
      resolve(event);
    });
  });
  ws.addEventListener('message', (event) => {
    const message = JSON.parse(event.data);
    seen.push(message);
    onMessage(message);
    for (const waiter of [...waiters]) {
      if (waiter.match(message)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  });
  const opened = new Promise((resolve, reject) => {
    ws.addEventListener('open', () => resolve());
    ws.addEventListener('error', () => reject(new Error(`${name} socket failed to open: ${url}`)));
  });
  return {
    ws,
    opened,
    closed,
    send(op, d) {
      record({ socket: name, sent: op, d: op === 2 || op === 0 ? '(identify)' : d });
      ws.send(JSON.stringify({ op, d }));
    },
    /** The first message (already seen or yet to come) that matches; rejects if the socket closes first. */
    wait(match, what) {
      const found = seen.find(match);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        waiters.push({ match, resolve });
        void closed.then((event) => reject(new Error(`${name} closed ${event.code} "${event.reason}" before ${what}`)));
      });
    },
  };
}

/** Joins the voice channel over the main gateway: READY, op 4, then VOICE_STATE_UPDATE and VOICE_SERVER_UPDATE. */
export async function joinOverGateway({ gatewayUrl, token, guildId, channelId }) {
  let lastSeq = null;
  let heartbeat;
  const gateway = jsonSocket(`${gatewayUrl}/?v=10&encoding=json`, 'gateway', (message) => {
    if (typeof message.s === 'number') lastSeq = message.s;
    if (message.op === 10) {
      heartbeat = setInterval(() => gateway.send(1, lastSeq), message.d.heartbeat_interval);
    }
  });
  await gateway.opened;
  await gateway.wait((m) => m.op === 10, 'Hello');
  gateway.send(2, { token, properties: { os: 'Linux', browser: 'Chrome', device: '' } });
  const ready = await gateway.wait((m) => m.t === 'READY', 'READY');
  const userId = ready.d.user.id;
  gateway.send(4, { guild_id: guildId, channel_id: channelId, self_mute: false, self_deaf: false, self_video: false });
  const state = await gateway.wait(
    (m) => m.t === 'VOICE_STATE_UPDATE' && m.d.user_id === userId && m.d.channel_id === channelId,
    'VOICE_STATE_UPDATE',
  );
  const server = await gateway.wait((m) => m.t === 'VOICE_SERVER_UPDATE', 'VOICE_SERVER_UPDATE');
  return { gateway, heartbeat, userId, sessionId: state.d.session_id, voice: server.d };
}
