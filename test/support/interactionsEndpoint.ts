import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyKey } from 'discord-interactions';

/**
 * How the endpoint behaves: `verifying` checks each signature with discord-interactions' verifyKey
 * (401 when wrong) as a real HTTP-interactions bot does; `accepting` answers without checking;
 * `wrongPong` verifies but answers a PING with something other than `{type: 1}`; `silent` never answers.
 */
export type EndpointMode = 'verifying' | 'accepting' | 'wrongPong' | 'silent';

/** One request the endpoint received, and whether its signature verified against `publicKey`. */
export interface ReceivedInteraction {
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  readonly verified: boolean;
}

/** A tiny HTTP-interactions bot on 127.0.0.1, for tests. */
export interface InteractionsEndpoint {
  readonly url: string;
  /** The application's verify_key (hex) the endpoint checks signatures with. */
  publicKey: string;
  mode: EndpointMode;
  /** The answer to anything but a PING (default: a channel message). */
  respond: (interaction: unknown) => unknown;
  readonly received: ReceivedInteraction[];
  close(): Promise<void>;
}

/** Starts an endpoint on an ephemeral port. */
export async function startInteractionsEndpoint(publicKey = ''): Promise<InteractionsEndpoint> {
  const received: ReceivedInteraction[] = [];
  const endpoint: Omit<InteractionsEndpoint, 'url' | 'close'> = {
    publicKey,
    mode: 'verifying',
    respond: () => ({ type: 4, data: { content: 'ok' } }),
    received,
  };
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const signature = String(request.headers['x-signature-ed25519'] ?? '');
        const timestamp = String(request.headers['x-signature-timestamp'] ?? '');
        const verified = await verifyKey(body, signature, timestamp, endpoint.publicKey).catch(() => false);
        received.push({ headers: request.headers, body, verified });
        if (endpoint.mode === 'silent') return;
        if (endpoint.mode !== 'accepting' && !verified) {
          response.writeHead(401, { 'content-type': 'text/plain' }).end('invalid request signature');
          return;
        }
        const interaction = JSON.parse(body) as { type?: number };
        const pong = endpoint.mode === 'wrongPong' ? { type: 4, data: { content: 'pong?' } } : { type: 1 };
        const answer = interaction.type === 1 ? pong : endpoint.respond(interaction);
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(endpoint, {
    url: `http://127.0.0.1:${port}/interactions`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
      });
    },
  });
}
