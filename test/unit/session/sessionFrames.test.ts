import assert from 'node:assert/strict';
import { dispatchFrame, withoutMessageContent } from '../../../actors/session/sessionFrames.js';

describe('sessionFrames', () => {
  describe('dispatchFrame', () => {
    it('wraps the serialized payload without re-serializing it', () => {
      const data = '{"id":"1","content":"hi \\"there\\""}';
      const frame = dispatchFrame('MESSAGE_CREATE', 7, data);
      assert.equal(frame, `{"op":0,"t":"MESSAGE_CREATE","s":7,"d":${data}}`);
      assert.deepEqual(JSON.parse(frame), { op: 0, t: 'MESSAGE_CREATE', s: 7, d: JSON.parse(data) as unknown });
    });
  });

  describe('withoutMessageContent', () => {
    const message = {
      id: '9',
      guild_id: '5',
      channel_id: '6',
      author: { id: '100' },
      content: 'secret',
      embeds: [{ title: 't' }],
      attachments: [{ id: '1' }],
      components: [{ type: 1 }],
      mentions: [] as { id: string }[],
    };

    it('empties content, embeds, attachments and components of a guild message', () => {
      const out = JSON.parse(withoutMessageContent('MESSAGE_CREATE', JSON.stringify(message), '200')) as typeof message;
      assert.equal(out.content, '');
      assert.deepEqual([out.embeds, out.attachments, out.components], [[], [], []]);
      assert.equal(out.id, '9');
    });

    it('keeps the content of the bot’s own messages, of mentions of it and of DMs', () => {
      const own = JSON.stringify({ ...message, author: { id: '200' } });
      const mention = JSON.stringify({ ...message, mentions: [{ id: '200' }] });
      const dm = JSON.stringify({ ...message, guild_id: undefined });
      for (const json of [own, mention, dm]) assert.equal(withoutMessageContent('MESSAGE_CREATE', json, '200'), json);
    });

    it('leaves other events alone', () => {
      const json = JSON.stringify({ id: '1', content: 'x', guild_id: '5' });
      assert.equal(withoutMessageContent('MESSAGE_DELETE', json, '200'), json);
    });
  });
});
