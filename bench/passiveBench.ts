import { addMembers, type BenchWorld } from './chorusSetup.js';
import { measureFanout, openSocket, type BenchSocket, type FanoutResult } from './fanout.js';

/** Share of the connected sessions that look at the guild (op 14) in the passive run. */
const ACTIVE_SHARE = 0.1;

/** One run of the large-guild row: how many frames one message costs and how fast they arrive. */
export interface PassiveRun extends FanoutResult {
  readonly activeSessions: number;
  readonly framesPerMessage: number;
}

/** The large-guild row: the same sessions all active, then 90% passive. */
export interface PassiveRow {
  readonly guildMembers: number;
  readonly sessions: number;
  readonly allActive: PassiveRun;
  readonly passive: PassiveRun;
}

export interface PassiveSetup {
  readonly baseUrl: string;
  readonly gatewayUrl: string;
  readonly world: BenchWorld;
  /** Members already in the guild (tokens); more are registered up to `guildMembers`. */
  readonly members: { token: string; id: string }[];
  readonly guildMembers: number;
  readonly sessions: number;
  readonly messages: number;
  readonly openMany: (count: number, open: () => Promise<BenchSocket>) => Promise<BenchSocket[]>;
  readonly send: (content: string) => Promise<void>;
}

/**
 * Issue 11 item 8: a guild of `guildMembers` members (above the large threshold) with `sessions` connected user
 * sessions, each run posting `messages` messages: all sessions active (op 14) against 10% active and 90% passive.
 * A passive session gets no MESSAGE_CREATE, so the frames sent per message fall with the active share.
 */
export async function passiveRow(setup: PassiveSetup): Promise<PassiveRow> {
  const { world, guildMembers, sessions } = setup;
  const members = setup.members.concat(
    await addMembers(setup.baseUrl, world, Math.max(0, guildMembers - 1 - setup.members.length)),
  );
  const run = async (activeSessions: number): Promise<PassiveRun> => {
    let index = 0;
    const open = (onMessage: (content: string) => void) => () => {
      const member = members[index] ?? world.owner;
      const looks = index < activeSessions;
      index += 1;
      return openSocket(setup.gatewayUrl, member.token, onMessage, looks ? world.guildId : undefined);
    };
    const result = await measureFanout(
      activeSessions,
      (onMessage) => setup.openMany(sessions, open(onMessage)),
      setup.send,
      setup.messages,
      activeSessions === sessions ? 10_000 : 2_000,
    );
    return { ...result, activeSessions, framesPerMessage: result.deliveries / setup.messages };
  };
  const allActive = await run(sessions);
  const passive = await run(Math.round(sessions * ACTIVE_SHARE));
  return { guildMembers: members.length + 1, sessions, allActive, passive };
}
