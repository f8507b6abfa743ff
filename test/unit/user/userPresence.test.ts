import assert from 'node:assert/strict';
import { describe, it } from 'mocha';
import {
  aggregatePresence,
  OFFLINE,
  sessionStatusOf,
  UserPresences,
  type SessionPresenceState,
} from '../../../actors/user/userPresence.js';

const session = (
  status: SessionPresenceState['status'],
  platform: SessionPresenceState['platform'] = 'web',
  activities: unknown[] = [],
): SessionPresenceState => ({ status, platform, activities });

describe('user presence aggregation', () => {
  it('shows the most available status of the visible sessions: online > dnd > idle', () => {
    assert.equal(aggregatePresence([session('idle'), session('dnd')]).status, 'dnd');
    assert.equal(aggregatePresence([session('idle'), session('online', 'mobile')]).status, 'online');
    assert.equal(aggregatePresence([session('idle')]).status, 'idle');
  });

  it('shows invisible sessions as nothing: offline when every session is invisible or none is left', () => {
    assert.deepEqual(aggregatePresence([session('invisible', 'desktop', [{ name: 'x', type: 0 }])]), OFFLINE);
    assert.deepEqual(aggregatePresence([]), OFFLINE);
    const mixed = aggregatePresence([session('invisible', 'desktop'), session('idle', 'mobile')]);
    assert.deepEqual(mixed.client_status, { mobile: 'idle' });
  });

  it('keeps the best status per platform in client_status and the winning session activities first, once each', () => {
    const presence = aggregatePresence([
      session('idle', 'desktop', [{ name: 'a', type: 0 }]),
      session('online', 'desktop', [{ name: 'b', type: 2 }]),
      session('dnd', 'mobile', [{ name: 'a', type: 0 }]),
    ]);
    assert.deepEqual(presence.client_status, { desktop: 'online', mobile: 'dnd' });
    assert.deepEqual(presence.activities, [
      { name: 'b', type: 2 },
      { name: 'a', type: 0 },
    ]);
  });

  it('reads client status text: unknown and empty are online, offline is invisible, others are refused', () => {
    assert.equal(sessionStatusOf('unknown'), 'online');
    assert.equal(sessionStatusOf(''), 'online');
    assert.equal(sessionStatusOf('offline'), 'invisible');
    assert.equal(sessionStatusOf('dnd'), 'dnd');
    assert.equal(sessionStatusOf('sleeping'), undefined);
  });

  it('reports a change only when what others see changes, and offline when the last session goes', () => {
    const presences = new UserPresences();
    assert.equal(presences.set('s1', session('online'))?.status, 'online');
    assert.equal(presences.set('s2', session('idle')), undefined, 'an idle second session changes nothing');
    assert.equal(presences.remove('s1')?.status, 'idle');
    assert.equal(presences.remove('unknown'), undefined);
    assert.deepEqual(presences.remove('s2'), OFFLINE);
    assert.equal(presences.current.status, 'offline');
  });

  it('goes offline when told every session is gone, even for sessions it never heard of', () => {
    const presences = new UserPresences();
    assert.deepEqual(presences.offline(), OFFLINE, 'a re-activated actor that heard nothing still says offline');
    presences.set('s1', session('dnd'));
    assert.deepEqual(presences.offline(), OFFLINE);
    assert.equal(presences.sessions.size, 0);
    assert.equal(presences.set('s2', session('online'))?.status, 'online');
  });
});
