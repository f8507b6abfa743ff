import assert from 'node:assert/strict';
import {
  aggregateReactions,
  canonicalKey,
  distinctEmoji,
  parseEmoji,
  reactionsOf,
} from '../../../actors/channel/reactions.js';
import type { ReactionRecord } from '../../../actors/runtime/ports/records.js';

const reaction = (emoji: string, user_id: string): ReactionRecord => ({
  channel_id: '1',
  message_id: '2',
  emoji,
  user_id,
  created_at: '2024-01-01T00:00:00.000Z',
});

describe('parseEmoji', () => {
  it('reads a custom emoji as name:id', () => {
    assert.deepEqual(parseEmoji('party:123'), { id: '123', name: 'party', animated: false, key: 'party:123' });
  });

  it('reads an animated custom emoji', () => {
    assert.equal(parseEmoji('a:dance:5').animated, true);
    assert.equal(parseEmoji('a:dance:5').key, 'dance:5');
  });

  it('reads unicode emoji, including sequences', () => {
    assert.equal(parseEmoji('👍').key, '👍');
    assert.equal(parseEmoji('👍🏽').id, null);
    assert.equal(parseEmoji('👨‍👩‍👧').name, '👨‍👩‍👧');
    assert.equal(parseEmoji('1️⃣').key, '1️⃣');
    assert.equal(parseEmoji('🇫🇷').key, '🇫🇷');
  });

  it('refuses text that is no emoji with 10014', () => {
    for (const raw of ['abc', '', '123', 'name:', ':1']) {
      assert.throws(
        () => parseEmoji(raw),
        (error: unknown) => (error as { discordCode?: number }).discordCode === 10_014,
      );
    }
  });
});

describe('aggregateReactions', () => {
  const records = [reaction('👍', '10'), reaction('x:5', '11'), reaction('👍', '11'), reaction('y:5', '12')];

  it('counts per emoji in first-use order and marks the viewer’s own', () => {
    const summary = aggregateReactions(records, '11');
    assert.equal(summary.length, 2);
    assert.deepEqual(summary[0], {
      emoji: { id: null, name: '👍' },
      count: 2,
      count_details: { burst: 0, normal: 2 },
      me: true,
      me_burst: false,
      burst_colors: [],
      burst_count: 0,
    });
    assert.equal(summary[1]?.count, 2, 'custom emoji count by id whatever their name');
    assert.deepEqual(summary[1]?.emoji, { id: '5', name: 'x' });
  });

  it('has me false for someone who did not react', () => {
    assert.ok(aggregateReactions(records, '99').every((entry) => !entry.me));
  });

  it('reuses the existing key of a custom emoji and counts distinct emoji', () => {
    assert.equal(canonicalKey(parseEmoji('other:5'), records), 'x:5');
    assert.equal(canonicalKey(parseEmoji('😀'), records), '😀');
    assert.equal(distinctEmoji(records), 2);
    assert.equal(reactionsOf(parseEmoji('z:5'), records).length, 2);
  });
});
