import assert from 'node:assert/strict';
import { voiceEndpoint } from '../../../src/node/voiceEndpoint.js';

describe('voiceEndpoint', () => {
  it('names the HTTP port + 1 on 127.0.0.1 by default, without a scheme', () => {
    assert.equal(voiceEndpoint({ port: 0, publicHost: '' }, '', 3001), '127.0.0.1:3002');
  });

  it("takes the public URL's host, then the configured host and port over it", () => {
    assert.equal(voiceEndpoint({ port: 0, publicHost: '' }, 'https://chat.example.test', 443), 'chat.example.test:444');
    assert.equal(
      voiceEndpoint({ port: 50_000, publicHost: 'voice.example.test' }, 'https://chat.example.test', 443),
      'voice.example.test:50000',
    );
  });
});
