import assert from 'node:assert/strict';
import { dispatchFrame, keptFrameOf, keptFrameText } from '../../../actors/runtime/dispatchFrames.js';

describe('dispatchFrames', () => {
  describe('dispatchFrame', () => {
    it('wraps the serialized payload without re-serializing it', () => {
      const data = '{"id":"1","content":"hi \\"there\\""}';
      const frame = dispatchFrame('MESSAGE_CREATE', 7, data);
      assert.equal(frame, `{"op":0,"t":"MESSAGE_CREATE","s":7,"d":${data}}`);
      assert.deepEqual(JSON.parse(frame), { op: 0, t: 'MESSAGE_CREATE', s: 7, d: JSON.parse(data) as unknown });
    });
  });

  describe('keptFrameOf', () => {
    it('cuts a frame it wrote back into sequence, event and payload text, unparsed', () => {
      const data = '{"content":"a } \\"quoted\\" ünïcode","nested":{"s":3}}';
      const kept = { seq: 42, event: 'GUILD_MEMBER_LIST_UPDATE', data };
      assert.deepEqual(keptFrameOf(keptFrameText(kept)), kept);
    });

    it('reads a dispatch frame written in another key order by parsing it', () => {
      const text = '{"t":"MESSAGE_CREATE","s":9,"op":0,"d":{"id":"1"}}';
      assert.deepEqual(keptFrameOf(text), { seq: 9, event: 'MESSAGE_CREATE', data: '{"id":"1"}' });
    });

    it('reads nothing from text that is not a dispatch frame', () => {
      assert.equal(keptFrameOf('not json'), undefined);
      assert.equal(keptFrameOf('{"op":11}'), undefined);
    });
  });
});
