import assert from 'node:assert/strict';
import type { ActorContext } from '../../../actors/runtime/ActorContext.js';
import { PresenceKeeper } from '../../../actors/user/presenceTells.js';

const GUILD = '200';

/** A keeper of user 100 in one guild, with these sessions attached; `guildHeard` lists the statuses told to the guild. */
function keeperWith(attached: string[]) {
  const guildHeard: string[] = [];
  const sessions = new Set(attached);
  const ctx = {
    key: '100',
    tell: (kind: string, key: string, command: { command: { $case: string; memberPresence?: { status: string } } }) => {
      if (kind === 'guild' && key === GUILD && command.command.memberPresence) {
        guildHeard.push(command.command.memberPresence.status);
      }
    },
  } as unknown as ActorContext;
  const keeper = new PresenceKeeper({
    ctx,
    guildIds: new Set([GUILD]),
    relationships: () => ({}),
    isUserAccount: () => false,
    hasSession: (id) => sessions.has(id),
    noSessionLeft: () => sessions.size === 0,
    dispatch: () => undefined,
  });
  const set = (sessionId: string, status: string, restored = false) => {
    keeper.sessionSet({ sessionId, status, activitiesJson: '[]', platform: 'web', restored });
  };
  const end = (sessionId: string) => {
    sessions.delete(sessionId);
    keeper.sessionEnded(sessionId);
  };
  return { keeper, guildHeard, set, end };
}

describe('PresenceKeeper', () => {
  it('says offline when the last session ends', () => {
    const { guildHeard, set, end } = keeperWith(['a']);
    set('a', 'online');
    end('a');
    assert.deepEqual(guildHeard, ['online', 'offline']);
  });

  it('announces what the sessions it heard show when one of them ends', () => {
    const { guildHeard, set, end } = keeperWith(['a', 'b']);
    set('a', 'online');
    set('b', 'idle');
    end('a');
    assert.deepEqual(guildHeard, ['online', 'idle']);
  });

  // A User actor re-activated after its node died hears the sessions it takes back (restored), not those
  // that lived on elsewhere: one of the former ending must not show the user offline while the others live.
  it('keeps what others were told when a session ends and only sessions it never heard remain', () => {
    const { keeper, guildHeard, set, end } = keeperWith(['orphan', 'resumed']);
    set('orphan', 'online', true);
    end('orphan');
    assert.deepEqual(guildHeard, ['online']);
    assert.equal(keeper.current.status, 'online');
    set('resumed', 'dnd');
    assert.deepEqual(guildHeard, ['online', 'dnd']);
  });
});
