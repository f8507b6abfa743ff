import type { Page } from 'playwright-core';

/** What join() on the page is told: the main gateway and the channel, and how the page's transceiver sends. */
export interface VoicePageJoin {
  readonly gatewayUrl: string;
  readonly token: string;
  readonly guildId: string;
  readonly channelId: string;
  /** sendrecv/sendonly publish an oscillator; recvonly only listens. */
  readonly direction: 'sendrecv' | 'sendonly' | 'recvonly';
  /** The oscillator's frequency (440 Hz unless given). */
  readonly toneHz?: number;
  /** The web client uses wss://; Spacebar's Fermi uses ws:// (the voice port serves both). */
  readonly voiceScheme: 'wss' | 'ws';
  /** A video transceiver too, as the web client has: `send` publishes a 15 fps canvas, `recv` only watches. */
  readonly video?: 'send' | 'recv';
}

/** What the page reports once its op 4 answer is applied. */
export interface VoicePageJoined {
  readonly userId: string;
  readonly sessionId: string;
  readonly readySsrc: number;
  /** The SSRC the browser sends audio with (its local a=ssrc), 0 when it only listens. */
  readonly audioSsrc: number;
  /** The SSRC of its VP8 video, 0 when it sends none. */
  readonly videoSsrc: number;
}

/** The page's measurements, sampled every 100 ms (stats) and 50 ms (loudness of each remote user's track). */
export interface VoicePageStatus {
  readonly connectionState?: string;
  readonly stats?: {
    readonly inbound: { ssrc: number; packetsReceived: number; mid?: string }[];
    readonly outbound: { ssrc: number; packetsSent: number }[];
    readonly video: { ssrc: number; packetsReceived: number; framesDecoded: number; frameWidth?: number }[];
    readonly pairs?: string[];
    readonly dtls?: string;
  };
  /** The loudest any remote user's track played. */
  readonly rms?: { max: number };
  /** Per remote user (id): how loud that user's own track played and its dominant frequency then. */
  readonly heard?: Record<string, { last: number; max: number; peakHz: number }>;
  /** Per receiving section (mid): the remote user and the SSRCs op 5 / op 12 named for it. */
  readonly remotes?: Record<string, { userId: string; ssrc: number; rtxSsrc?: number }>;
  readonly audioSsrc?: number;
  readonly errors: string[];
  readonly log: unknown[];
}

interface ChorusWindow {
  chorus: {
    join(options: VoicePageJoin): Promise<VoicePageJoined>;
    status(): VoicePageStatus;
    leave(): void;
  };
}

/** The page's recent signalling and errors, for a failure message that says which step the server missed. */
export function describe(status: VoicePageStatus, entries = 40): string {
  const { log, ...rest } = status;
  return `${JSON.stringify(rest)}\nlast messages:\n${log
    .slice(-entries)
    .map((entry) => JSON.stringify(entry))
    .join('\n')}`;
}

/** The browser's side of a call, driven through window.chorus. */
export class VoicePage {
  constructor(readonly page: Page) {}

  /** Joins over the main gateway and the voice gateway; fails with the page's log when a step fails or stalls. */
  async join(options: VoicePageJoin, timeoutMs = 10_000): Promise<VoicePageJoined> {
    let timer: NodeJS.Timeout | undefined;
    const stalled = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`join did not finish in ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      // Functions given to evaluate() run in the page, so each names window.chorus itself.
      const joined = this.page.evaluate(
        async (join) => (globalThis as unknown as ChorusWindow).chorus.join(join),
        options,
      );
      return await Promise.race([joined, stalled]);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${describe(await this.status())}`, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  status(): Promise<VoicePageStatus> {
    return this.page.evaluate(() => (globalThis as unknown as ChorusWindow).chorus.status());
  }

  /** Total audio packets received over all inbound streams. */
  static packetsReceived(status: VoicePageStatus): number {
    return (status.stats?.inbound ?? []).reduce((sum, stream) => sum + stream.packetsReceived, 0);
  }

  /** Polls the page's status until `done` holds; on timeout fails with the status and the page's log. */
  async waitFor(what: string, done: (status: VoicePageStatus) => boolean, timeoutMs: number): Promise<VoicePageStatus> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const status = await this.status();
      if (done(status)) return status;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n${describe(status)}`);
      await this.page.waitForTimeout(100); // the page samples its stats every 100 ms
    }
  }

  async leave(): Promise<void> {
    await this.page.evaluate(() => {
      (globalThis as unknown as ChorusWindow).chorus.leave();
    });
  }
}
