import assert from 'node:assert/strict';
import { dispatchFrame } from '../../../actors/session/sessionFrames.js';

describe('sessionFrames', () => {
  describe('dispatchFrame', () => {
    it('wraps the serialized payload without re-serializing it', () => {
      const data = '{"id":"1","content":"hi \\"there\\""}';
      const frame = dispatchFrame('MESSAGE_CREATE', 7, data);
      assert.equal(frame, `{"op":0,"t":"MESSAGE_CREATE","s":7,"d":${data}}`);
      assert.deepEqual(JSON.parse(frame), { op: 0, t: 'MESSAGE_CREATE', s: 7, d: JSON.parse(data) as unknown });
    });
  });
});
