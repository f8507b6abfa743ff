// The voice service's server-side sockets as the test sees them, so a test can close one the way the server would
// (4015: "voice server crashed", which clients resume from) without a hook in src/voice. The node runs in the test
// process and accepts voice sockets through ws's WebSocketServer; wrapping its handleUpgrade sees each accepted
// socket, and the client's Identify on it names the user.
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';

type HandleUpgrade = (
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  callback: (ws: WebSocket, request: IncomingMessage) => void,
) => void;

/** Server-side voice sockets by the user that identified on them (voice op 0 carries server_id and user_id). */
export class VoiceSocketWatch {
  private readonly byUser = new Map<string, WebSocket>();
  private readonly original: HandleUpgrade;

  constructor() {
    const prototype = WebSocketServer.prototype as unknown as { handleUpgrade: HandleUpgrade };
    this.original = prototype.handleUpgrade;
    const original = this.original;
    const byUser = this.byUser;
    prototype.handleUpgrade = function (this: WebSocketServer, request, socket, head, callback) {
      original.call(this, request, socket, head, (ws, req) => {
        ws.on('message', (data: Buffer, isBinary: boolean) => {
          if (isBinary) return;
          try {
            const message = JSON.parse(data.toString('utf8')) as { op?: unknown; d?: Record<string, unknown> };
            const userId = message.d?.['user_id'];
            if (message.op === 0 && typeof message.d?.['server_id'] === 'string' && typeof userId === 'string') {
              byUser.set(userId, ws);
            }
          } catch {
            // not JSON: the voice service refuses it itself
          }
        });
        callback(ws, req);
      });
    };
  }

  /** Closes the voice socket `userId` identified on, from the server side; false when there is none. */
  close(userId: string, code: number, reason: string): boolean {
    const ws = this.byUser.get(userId);
    if (!ws) return false;
    ws.close(code, reason);
    return true;
  }

  /** Puts ws's handleUpgrade back. */
  stop(): void {
    (WebSocketServer.prototype as unknown as { handleUpgrade: HandleUpgrade }).handleUpgrade = this.original;
  }
}
