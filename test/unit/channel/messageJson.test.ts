import assert from 'node:assert/strict';
import { forUpdateEvent, isDeletableType, messageJson, withJsonFields } from '../../../actors/channel/messageJson.js';
import type { ReactionJson } from '../../../actors/channel/reactions.js';
import type { MessageRecord } from '../../../actors/runtime/ports/records.js';

function aMessage(overrides: Partial<MessageRecord> = {}): MessageRecord {
  return {
    id: '100',
    channel_id: '10',
    guild_id: '1',
    author_id: '5',
    type: 0,
    content: 'hi <@6>',
    tts: false,
    mention_everyone: false,
    mention_ids: ['6'],
    mention_role_ids: [],
    embeds: [],
    attachments: [],
    components: [],
    sticker_ids: [],
    nonce: null,
    pinned: false,
    flags: 0,
    message_reference: null,
    edited_timestamp: null,
    timestamp: '2024-01-01T00:00:00.000Z',
    webhook_id: null,
    author_json: '{"id":"5","username":"ann"}',
    ...overrides,
  };
}

const userOf = (id: string) => ({ id, username: `u${id}` });

describe('messageJson', () => {
  it('renders the Discord message shape with author and mentions', () => {
    const json = messageJson(aMessage(), { userOf });
    assert.deepEqual(json, {
      type: 0,
      content: 'hi <@6>',
      mentions: [{ id: '6', username: 'u6' }],
      mention_roles: [],
      attachments: [],
      embeds: [],
      timestamp: '2024-01-01T00:00:00.000Z',
      edited_timestamp: null,
      flags: 0,
      components: [],
      id: '100',
      channel_id: '10',
      author: { id: '5', username: 'ann' },
      pinned: false,
      mention_everyone: false,
      tts: false,
      reactions: [],
    });
  });

  it('echoes the nonce and always carries reactions as an array', () => {
    const json = messageJson(aMessage({ nonce: 'n1' }), { userOf });
    assert.equal(json['nonce'], 'n1');
    assert.deepEqual(json['reactions'], []);
  });

  it('leaves reactions out of a MESSAGE_UPDATE, whose readers keep the ones they know', () => {
    const reactions: ReactionJson[] = [
      {
        emoji: { id: null, name: '👍' },
        count: 1,
        count_details: { burst: 0, normal: 1 },
        me: true,
        me_burst: false,
        burst_colors: [],
        burst_count: 0,
      },
    ];
    const json = messageJson(aMessage(), { userOf, reactions });
    assert.deepEqual(json['reactions'], reactions);
    assert.equal('reactions' in forUpdateEvent(json), false);
  });

  it('renders a reply with its referenced message, or null when it is gone', () => {
    const reply = aMessage({ id: '101', type: 19, message_reference: { message_id: '100', channel_id: '10' } });
    const json = messageJson(reply, { userOf, referenced: aMessage() });
    assert.deepEqual(json['message_reference'], { type: 0, message_id: '100', channel_id: '10' });
    assert.equal((json['referenced_message'] as { id: string }).id, '100');
    assert.equal(messageJson(reply, { userOf, referenced: null })['referenced_message'], null);
  });

  it('falls back to the author id when the snapshot is broken', () => {
    assert.deepEqual(messageJson(aMessage({ author_json: 'nope' }), { userOf })['author'], { id: '5' });
  });

  it('treats system message types as undeletable', () => {
    assert.equal(isDeletableType(0), true);
    assert.equal(isDeletableType(19), true);
    assert.equal(isDeletableType(1), false);
  });
});

describe('withJsonFields', () => {
  it('appends raw JSON fields without re-serializing the object', () => {
    const text = withJsonFields('{"id":"1"}', { guild_id: '"9"', member: '{"roles":[]}' });
    assert.deepEqual(JSON.parse(text), { id: '1', guild_id: '9', member: { roles: [] } });
  });

  it('handles an empty object and no extras', () => {
    assert.equal(withJsonFields('{}', { a: '1' }), '{"a":1}');
    assert.equal(withJsonFields('{"a":1}', {}), '{"a":1}');
  });
});
