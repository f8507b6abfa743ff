import type { ChannelOptions } from '@grpc/grpc-js';

/** Largest message a node sends or accepts (a guild's member list page, a batch of frames). */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

/** Channel options of a client to a peer node. */
export const CLIENT_CHANNEL_OPTIONS: ChannelOptions = {
  'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
  'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  // Pings find a dead peer behind a silent connection (a lost host, a dropped NAT entry) in ~15 s,
  // and keep the long-lived PushFrames stream honest while no frames flow.
  'grpc.keepalive_time_ms': 10_000,
  'grpc.keepalive_timeout_ms': 5_000,
  'grpc.keepalive_permit_without_calls': 1,
  // Reconnect fast after a peer restarts; the default backoff tops out at 120 s.
  'grpc.initial_reconnect_backoff_ms': 100,
  'grpc.max_reconnect_backoff_ms': 2_000,
  // The node itself retries once after re-resolving (S3); the channel must not replay calls on its own.
  'grpc.enable_retries': 0,
};

/** Options of the node's server. */
export const SERVER_OPTIONS: ChannelOptions = {
  'grpc.max_receive_message_length': MAX_MESSAGE_BYTES,
  'grpc.max_send_message_length': MAX_MESSAGE_BYTES,
  'grpc.keepalive_time_ms': 30_000,
  'grpc.keepalive_timeout_ms': 10_000,
};
