import { credentials, type ChannelOptions } from '@grpc/grpc-js';
import { NodeServiceClient } from '../../proto/gen/chorus/v1/node.js';
import { CLIENT_CHANNEL_OPTIONS } from './grpcOptions.js';

/** The dialable address of a node id `host:port@incarnation` (the part before the last '@'). */
export function addressOf(nodeId: string): string {
  const at = nodeId.lastIndexOf('@');
  return at < 0 ? nodeId : nodeId.slice(0, at);
}

/**
 * One NodeService client (one HTTP/2 channel) per peer node, created on first use and reused by
 * every call to it. Keyed by the full node id: a restarted node is a new member with a new channel,
 * and `drop` closes the old one when membership says it left.
 */
export class GrpcClientPool {
  readonly #clients = new Map<string, NodeServiceClient>();

  constructor(private readonly channelOptions: ChannelOptions = CLIENT_CHANNEL_OPTIONS) {}

  /** The client of a peer node. */
  get(nodeId: string): NodeServiceClient {
    let client = this.#clients.get(nodeId);
    if (!client) {
      client = new NodeServiceClient(addressOf(nodeId), credentials.createInsecure(), this.channelOptions);
      this.#clients.set(nodeId, client);
    }
    return client;
  }

  /** Closes the channel to a node that left the view. */
  drop(nodeId: string): void {
    this.#clients.get(nodeId)?.close();
    this.#clients.delete(nodeId);
  }

  /** Closes every channel. */
  close(): void {
    for (const client of this.#clients.values()) client.close();
    this.#clients.clear();
  }
}
