import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { decodeEtf, EtfDecodeError, MAX_TERM_DEPTH } from '../../../../src/gateway/etf/etfDecode.js';
import { encodeEtf } from '../../../../src/gateway/etf/etfEncode.js';

const bytes = (...values: number[]): Buffer => Buffer.from([131, ...values]);
const u32 = (n: number): number[] => [(n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255];
const binary = (text: string): number[] => [109, ...u32(Buffer.byteLength(text)), ...Buffer.from(text)];
const smallAtom = (name: string): number[] => [115, name.length, ...Buffer.from(name, 'latin1')];

describe('ETF codec', () => {
  describe('encodeEtf', () => {
    it('writes version 131, atom field keys, binary strings, nil/true/false atoms', () => {
      assert.deepEqual(encodeEtf({ a: 'x' }), bytes(116, ...u32(1), ...smallAtom('a'), ...binary('x')));
      assert.deepEqual(encodeEtf(null), bytes(...smallAtom('nil')));
      assert.deepEqual(
        encodeEtf([true, false]),
        bytes(108, ...u32(2), ...smallAtom('true'), ...smallAtom('false'), 106),
      );
    });

    it('picks 97 for 0..255, 98 for int32, NEW_FLOAT_EXT for the rest', () => {
      assert.deepEqual(encodeEtf(7), bytes(97, 7));
      assert.deepEqual(encodeEtf(-1), bytes(98, 255, 255, 255, 255));
      assert.deepEqual(encodeEtf(70000), bytes(98, ...u32(70000)));
      const wide = encodeEtf(1700000000123);
      assert.equal(wide[1], 70);
      assert.equal(wide.readDoubleBE(2), 1700000000123);
      assert.equal(encodeEtf(0.5)[1], 70);
    });

    it('keeps snowflake-keyed maps as binary keys and snowflakes as binaries', () => {
      const id = '1200000000000000007';
      assert.deepEqual(encodeEtf({ [id]: id }), bytes(116, ...u32(1), ...binary(id), ...binary(id)));
    });

    it('writes the event name t as an atom, leaves undefined fields out, empty lists as NIL_EXT', () => {
      const out = encodeEtf({ t: 'READY', s: 1, skip: undefined, d: [] });
      assert.deepEqual(
        out,
        bytes(
          116,
          ...u32(3),
          ...smallAtom('t'),
          ...smallAtom('READY'),
          ...smallAtom('s'),
          97,
          1,
          ...smallAtom('d'),
          106,
        ),
      );
    });

    it('encodes multi-byte UTF-8 strings by byte length', () => {
      assert.deepEqual(encodeEtf('é☃'), bytes(...binary('é☃')));
    });
  });

  describe('decodeEtf', () => {
    it('round-trips a gateway payload to what JSON would carry', () => {
      const payload = {
        t: 'MESSAGE_CREATE',
        s: 42,
        op: 0,
        d: {
          id: '1200000000000000007',
          content: 'héllo ☃',
          mentions: [],
          embeds: [{ title: 't', fields: [{ name: 'n', value: 'v', inline: false }] }],
          nonce: null,
          tts: false,
          flags: 70000,
          negative: -12,
          edited_timestamp: 1700000000123,
          ratio: 0.25,
          notes: { '1200000000000000008': 'note' },
        },
      };
      assert.deepEqual(decodeEtf(encodeEtf(payload), { atomKeys: true }), JSON.parse(JSON.stringify(payload)));
    });

    it('reads what clients send: 97, 98, 70, 99, small and large big ints, atoms, 107, tuples', () => {
      assert.equal(decodeEtf(bytes(97, 200)), 200);
      assert.equal(decodeEtf(bytes(98, 255, 255, 255, 254)), -2);
      const float = Buffer.alloc(8);
      float.writeDoubleBE(1700000000123);
      assert.equal(decodeEtf(bytes(70, ...float)), 1700000000123);
      const old = Buffer.alloc(31);
      old.write('1.50000000000000000000e+00', 'latin1');
      assert.equal(decodeEtf(bytes(99, ...old)), 1.5);
      // 1200000000000000007 little-endian in 8 bytes: past 2^53, so kept as its decimal digits.
      const snowflake = Buffer.alloc(8);
      snowflake.writeBigUInt64LE(1200000000000000007n);
      assert.equal(decodeEtf(bytes(110, 8, 0, ...snowflake)), '1200000000000000007');
      assert.equal(decodeEtf(bytes(111, 0, 0, 0, 8, 0, ...snowflake)), '1200000000000000007');
      assert.equal(decodeEtf(bytes(110, 4, 1, 0, 0, 0, 128)), -(2 ** 31));
      assert.equal(decodeEtf(bytes(100, 0, 3, ...Buffer.from('nil'))), null);
      assert.equal(decodeEtf(bytes(118, 0, 4, ...Buffer.from('null'))), null);
      assert.equal(decodeEtf(bytes(119, 4, ...Buffer.from('true'))), true);
      assert.equal(decodeEtf(bytes(...smallAtom('false'))), false);
      assert.equal(decodeEtf(bytes(...smallAtom('online'))), 'online');
      assert.equal(decodeEtf(bytes(107, 0, 2, 104, 105)), 'hi');
      assert.deepEqual(decodeEtf(bytes(104, 2, 97, 0, 97, 1)), [0, 1]);
      assert.deepEqual(decodeEtf(bytes(105, ...u32(1), 97, 3)), [3]);
      assert.deepEqual(decodeEtf(bytes(106)), []);
    });

    it('accepts binary and string map keys, refuses atom keys', () => {
      assert.deepEqual(decodeEtf(bytes(116, ...u32(1), ...binary('op'), 97, 1)), { op: 1 });
      assert.deepEqual(decodeEtf(bytes(116, ...u32(1), 107, 0, 2, 111, 112, 97, 1)), { op: 1 });
      assert.throws(() => decodeEtf(bytes(116, ...u32(1), ...smallAtom('op'), 97, 1)), EtfDecodeError);
    });

    it('does not let a __proto__ key change the prototype', () => {
      const value = decodeEtf(bytes(116, ...u32(1), ...binary('__proto__'), 116, ...u32(1), ...binary('x'), 97, 1));
      assert.equal(Object.getPrototypeOf(value), Object.prototype);
      assert.equal(({} as Record<string, unknown>).x, undefined);
    });

    it('refuses malformed terms', () => {
      const refused = [
        Buffer.from([]),
        Buffer.from([130, 97, 1]), // wrong version
        bytes(), // no term
        bytes(97), // truncated
        bytes(98, 0, 0), // truncated
        bytes(109, ...u32(10), 65), // binary longer than the buffer
        bytes(108, ...u32(0xffffffff), 97, 1), // count far past the buffer
        bytes(108, ...u32(1), 97, 1, 97, 2), // improper list tail
        bytes(116, ...u32(2), ...binary('a'), 97, 1), // map count past its pairs
        bytes(97, 1, 97, 2), // trailing bytes
        bytes(80, ...u32(10), 120, 156), // compressed term
        bytes(110, 9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9), // wider than 64 bits
        bytes(70, 127, 240, 0, 0, 0, 0, 0, 0), // +Infinity
        bytes(103, 0), // unsupported tag (pid)
        bytes(99, ...Buffer.alloc(31)), // float text that is not a number
      ];
      for (const input of refused) assert.throws(() => decodeEtf(input), EtfDecodeError, input.toString('hex'));
    });

    it('refuses nesting past the depth limit before recursing further', () => {
      const nested = (depth: number): Buffer =>
        bytes(
          ...Array.from({ length: depth }, () => [108, ...u32(1)]).flat(),
          97,
          1,
          ...Array<number>(depth).fill(106),
        );
      assert.doesNotThrow(() => decodeEtf(nested(MAX_TERM_DEPTH)));
      assert.throws(() => decodeEtf(nested(MAX_TERM_DEPTH + 1)), EtfDecodeError);
      assert.throws(() => decodeEtf(nested(10_000)), EtfDecodeError);
    });
  });
});

/** erlpack (the desktop client's codec) as an independent oracle for both directions. */
describe('ETF codec against erlpack', () => {
  const erlpack = createRequire(import.meta.url)('erlpack') as {
    pack(value: unknown): Buffer;
    unpack(data: Buffer): unknown;
  };
  const payloads: unknown[] = [
    { op: 10, d: { heartbeat_interval: 41250 }, s: null, t: null },
    {
      op: 0,
      s: 3,
      t: 'READY',
      d: {
        v: 10,
        user: { id: '1200000000000000007', username: 'bot', bot: true, avatar: null },
        guilds: [{ id: '1200000000000000008', unavailable: true }],
        notes: { '1200000000000000009': 'hi ☃' },
        version: 1700000000000,
        big: -3_000_000_000,
        ratio: 0.125,
        empty: [],
      },
    },
  ];

  it('erlpack reads every payload the encoder writes as the JSON it came from', () => {
    for (const payload of payloads) assert.deepEqual(erlpack.unpack(encodeEtf(payload)), payload);
  });

  it('the decoder reads what erlpack clients send', () => {
    const identify = {
      op: 2,
      d: {
        token: 'Bot x',
        intents: 513,
        properties: { os: 'linux' },
        shard: [0, 1],
        presence: { since: 1700000000123 },
      },
    };
    assert.deepEqual(decodeEtf(erlpack.pack(identify)), identify);
    assert.deepEqual(decodeEtf(erlpack.pack({ op: 1, d: null })), { op: 1, d: null });
  });
});
