import assert from 'node:assert/strict';
import {
  DISCOVERY_PACKET_BYTES,
  discoveryRequest,
  discoveryResponse,
  parseDiscoveryRequest,
  parseDiscoveryResponse,
} from '../../../src/voice/ipDiscovery.js';

describe('voice IP discovery packets', () => {
  it('a request is 74 bytes of type 1, length 70 and the ssrc, and parses back to that ssrc', () => {
    const request = discoveryRequest(0xdead_beef);
    assert.equal(request.length, DISCOVERY_PACKET_BYTES);
    assert.equal(request.readUInt16BE(0), 1);
    assert.equal(request.readUInt16BE(2), 70);
    assert.equal(parseDiscoveryRequest(request), 0xdead_beef);
  });

  it('a reply carries the address NUL-terminated at offset 8 and the port in the last two bytes', () => {
    const reply = discoveryResponse(42, '203.0.113.7', 50_004);
    assert.equal(reply.length, 74);
    assert.equal(reply.readUInt16BE(0), 2);
    assert.equal(reply.subarray(8, 8 + 11).toString('ascii'), '203.0.113.7');
    assert.equal(reply[8 + 11], 0);
    assert.equal(reply.readUInt16BE(72), 50_004);
    assert.deepEqual(parseDiscoveryResponse(reply), { ssrc: 42, address: '203.0.113.7', port: 50_004 });
  });

  it('anything else is not a request: wrong size, wrong type, a reply', () => {
    assert.equal(parseDiscoveryRequest(Buffer.alloc(8)), undefined);
    assert.equal(parseDiscoveryRequest(Buffer.alloc(74)), undefined);
    assert.equal(parseDiscoveryRequest(discoveryResponse(1, '127.0.0.1', 1)), undefined);
  });

  it('a reply is refused for a non-IPv4 address, which @discordjs/voice would reject', () => {
    assert.throws(() => discoveryResponse(1, '::1', 1), RangeError);
  });
});
