/** Options of a Session actor: the gateway's resume settings plus what token checks and READY need. */
export interface SessionOptions {
  /** How long a session without a socket waits for a Resume before it ends. */
  readonly resumeWindowMs: number;
  /** Dispatch frames kept for replay. */
  readonly resumeBufferSize: number;
  readonly tokenSecret: string;
  /** READY.resume_gateway_url. */
  readonly gatewayUrl: string;
  /** VOICE_SERVER_UPDATE.endpoint for a voice channel: its voice service's `host:port` (unset: 127.0.0.1:0). */
  readonly voiceEndpointOf?: (channelId: string) => string;
}
