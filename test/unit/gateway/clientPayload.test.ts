import assert from 'node:assert/strict';
import { decodeClientPayload, parseIdentify, parseResume } from '../../../src/gateway/clientPayload.js';

const properties = { os: 'linux', browser: 'x', device: 'x' };
const bytes = (value: unknown): Buffer => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));

describe('clientPayload', () => {
  describe('decodeClientPayload', () => {
    it('decodes op and d', () => {
      assert.deepEqual(decodeClientPayload(bytes({ op: 1, d: 5 })), { op: 1, d: 5 });
      assert.deepEqual(decodeClientPayload(bytes({ op: 1 })), { op: 1, d: null });
    });

    it('refuses text that is not a JSON object with 4002', () => {
      for (const text of ['{', '[1]', '"x"', 'null'])
        assert.deepEqual(decodeClientPayload(bytes(text)), { closeCode: 4002 });
    });

    it('refuses a payload over 4096 bytes with 4002', () => {
      assert.deepEqual(decodeClientPayload(bytes({ op: 1, pad: 'x'.repeat(4096) })), { closeCode: 4002 });
    });

    it('refuses a missing or fractional op with 4001', () => {
      assert.deepEqual(decodeClientPayload(bytes({ d: 1 })), { closeCode: 4001 });
      assert.deepEqual(decodeClientPayload(bytes({ op: 1.5 })), { closeCode: 4001 });
    });
  });

  describe('parseIdentify', () => {
    it('takes token, intents, shard, properties and presence', () => {
      const fields = parseIdentify({
        token: 'Bot abc',
        properties,
        intents: 513,
        shard: [1, 4],
        presence: { status: 'dnd', activities: [{ name: 'x', type: 0 }] },
        compress: true,
        capabilities: 0,
      });
      assert.deepEqual(fields, {
        token: 'abc',
        intents: '513',
        shardId: 1,
        shardCount: 4,
        propertiesJson: JSON.stringify(properties),
        presenceJson: '{"status":"dnd","activities":[{"name":"x","type":0}]}',
        compress: true,
        capabilities: 0,
      });
    });

    it('gives every known intent to a client that sent none (user accounts)', () => {
      const fields = parseIdentify({ token: 't', properties });
      assert.ok(!('closeCode' in fields));
      assert.equal(fields.intents, '53608447');
      assert.equal(fields.shardCount, 0);
    });

    it('refuses a payload failing IdentifySchema with 4002', () => {
      assert.deepEqual(parseIdentify({ token: 't' }), { closeCode: 4002 });
      assert.deepEqual(parseIdentify('x'), { closeCode: 4002 });
      assert.deepEqual(parseIdentify({ token: 't', properties, presence: 'online' }), { closeCode: 4002 });
    });

    it('refuses shards outside 0 <= id < count with 4010', () => {
      for (const shard of [
        [1, 1],
        [-1, 2],
        [0, 0],
      ]) {
        assert.deepEqual(parseIdentify({ token: 't', properties, shard }), { closeCode: 4010 }, JSON.stringify(shard));
      }
    });

    it('refuses unknown, negative or fractional intents with 4013', () => {
      for (const intents of [1 << 22, -1, 1.5, 2 ** 60]) {
        assert.deepEqual(parseIdentify({ token: 't', properties, intents }), { closeCode: 4013 }, String(intents));
      }
    });
  });

  describe('parseResume', () => {
    it('takes token, session id and seq (null meaning 0)', () => {
      assert.deepEqual(parseResume({ token: 't', session_id: 's', seq: 7 }), { token: 't', sessionId: 's', seq: 7 });
      assert.deepEqual(parseResume({ token: 't', session_id: 's', seq: null }), { token: 't', sessionId: 's', seq: 0 });
    });

    it('refuses a malformed resume with 4002', () => {
      assert.deepEqual(parseResume({ token: 't', seq: 1 }), { closeCode: 4002 });
      assert.deepEqual(parseResume({ token: 't', session_id: 's', seq: -1 }), { closeCode: 4002 });
    });
  });
});
