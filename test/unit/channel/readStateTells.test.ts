import assert from 'node:assert/strict';

import type { ChannelScope } from '../../../actors/channel/ChannelScope.js';
import { PendingAuthorReads, tellAuthorRead, tellMentioned } from '../../../actors/channel/readStateTells.js';
import type { MessageRecord } from '../../../actors/runtime/ports/records.js';
import { aMessage, nextId } from '../../contract/records.js';

const CHANNEL = nextId();

/** A told read state, as the User actor would get it: [user, message id, own]. */
type Told = [string, string, boolean];

/**
 * The parts of a channel scope the read-state tells use: a context that records tells and says which User
 * actors live on this node, and the pending own messages, told when the test "flushes".
 */
function scopeWith(localUsers: readonly string[]): { scope: ChannelScope; told: Told[]; flush: () => void } {
  const told: Told[] = [];
  const channel = { id: CHANNEL, guild_id: nextId(), recipient_ids: [] as string[] };
  const authorReads = new PendingAuthorReads();
  const scope = {
    channel,
    authorReads,
    noteAuthorRead: (record: MessageRecord) => {
      authorReads.note(record);
    },
    ctx: {
      livesHere: (_kind: string, key: string) => localUsers.includes(key),
      tell: (
        _kind: string,
        key: string,
        command: { command: { readStateMessage: { messageId: string; own: boolean } } },
      ) => told.push([key, command.command.readStateMessage.messageId, command.command.readStateMessage.own]),
    },
  } as unknown as ChannelScope;
  return {
    scope,
    told,
    flush: () => {
      authorReads.tellAll(scope);
    },
  };
}

describe('read-state tells from a channel', () => {
  it('tells an author whose User actor lives on this node at once, each message', () => {
    const { scope, told } = scopeWith(['alice']);
    const first = aMessage({ channel_id: CHANNEL, author_id: 'alice' });
    const second = aMessage({ channel_id: CHANNEL, author_id: 'alice' });
    tellAuthorRead(scope, first);
    tellAuthorRead(scope, second);
    assert.deepEqual(told, [
      ['alice', first.id, true],
      ['alice', second.id, true],
    ]);
  });

  it('tells an author on another node only their newest message, with the flush', () => {
    const { scope, told, flush } = scopeWith([]);
    const messages = [
      aMessage({ channel_id: CHANNEL, author_id: 'bob' }),
      aMessage({ channel_id: CHANNEL, author_id: 'bob' }),
      aMessage({ channel_id: CHANNEL, author_id: 'carol' }),
    ];
    for (const message of messages) tellAuthorRead(scope, message);
    assert.deepEqual(told, []);
    flush();
    assert.deepEqual(told, [
      ['bob', messages[1]?.id, true],
      ['carol', messages[2]?.id, true],
    ]);
    flush();
    assert.equal(told.length, 2, 'a flush tells each pending message once');
  });

  it('tells a pending own message before a newer mention of its author, so the mention still counts', () => {
    const { scope, told, flush } = scopeWith([]);
    const own = aMessage({ channel_id: CHANNEL, author_id: 'bob' });
    tellAuthorRead(scope, own);
    const ping = aMessage({ channel_id: CHANNEL, author_id: 'carol', mention_ids: ['bob'] });
    tellMentioned(scope, ping);
    assert.deepEqual(told, [
      ['bob', own.id, true],
      ['bob', ping.id, false],
    ]);
    flush();
    assert.equal(told.length, 2);
  });
});
