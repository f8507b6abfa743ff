import {
  ATOM_EXT,
  ATOM_UTF8_EXT,
  BINARY_EXT,
  ETF_VERSION,
  FLOAT_EXT,
  INTEGER_EXT,
  LARGE_BIG_EXT,
  LARGE_TUPLE_EXT,
  LIST_EXT,
  MAP_EXT,
  NEW_FLOAT_EXT,
  NIL_EXT,
  SMALL_ATOM_EXT,
  SMALL_ATOM_UTF8_EXT,
  SMALL_BIG_EXT,
  SMALL_INTEGER_EXT,
  SMALL_TUPLE_EXT,
  STRING_EXT,
} from './etfTags.js';

/** A client term the gateway refuses (the connection closes 4002). */
export class EtfDecodeError extends Error {}

/** Same nesting bound as JSON payloads (jsonBounds): a hostile term cannot recurse the decoder deep. */
export const MAX_TERM_DEPTH = 32;
/** Big integers wider than 64 bits are no snowflake or counter a client can mean. */
const MAX_BIG_BYTES = 8;
/** Every term takes at least one byte, so no honest count exceeds the bytes left; checked before allocating. */
const MIN_TERM_BYTES = 1;

/**
 * Reads one client payload in Erlang term format. Accepts what clients' encoders write: integers (97,
 * 98, big ints up to 64 bits: unsafe ones become decimal strings, like snowflakes JSON clients quote),
 * floats (70, 99), atoms (nil/null → null, true/false → booleans, others → strings), binaries and
 * strings (→ strings), lists (107's bytes as numbers), tuples (→ arrays) and maps with binary keys.
 * Refuses atom map keys (as Discord does), compressed terms, trailing bytes, depth past 32 and any
 * length that runs past the buffer. `atomKeys` lifts the key rule, to read what the server itself writes.
 */
export function decodeEtf(data: Uint8Array, { atomKeys = false } = {}): unknown {
  const reader = new TermReader(Buffer.from(data.buffer, data.byteOffset, data.byteLength), atomKeys);
  if (reader.byte() !== ETF_VERSION) throw new EtfDecodeError('not ETF version 131');
  const value = reader.term(0);
  if (!reader.done()) throw new EtfDecodeError('trailing bytes after the term');
  return value;
}

class TermReader {
  #offset = 0;

  constructor(
    private readonly buffer: Buffer,
    private readonly atomKeys: boolean,
  ) {}

  done(): boolean {
    return this.#offset === this.buffer.length;
  }

  byte(): number {
    this.#need(1);
    return this.buffer[this.#offset++] as number;
  }

  term(depth: number): unknown {
    if (depth > MAX_TERM_DEPTH) throw new EtfDecodeError('term nested too deep');
    const tag = this.byte();
    switch (tag) {
      case SMALL_INTEGER_EXT:
        return this.byte();
      case INTEGER_EXT:
        return this.#read(4).readInt32BE(0);
      case NEW_FLOAT_EXT:
        return this.#finite(this.#read(8).readDoubleBE(0));
      case FLOAT_EXT:
        return this.#finite(Number.parseFloat(this.#read(31).toString('latin1').replace(/\0+$/, '')));
      case SMALL_BIG_EXT:
        return this.#big(this.byte());
      case LARGE_BIG_EXT:
        return this.#big(this.#uint32());
      case ATOM_EXT:
      case ATOM_UTF8_EXT:
        return atomValue(this.#read(this.#uint16()), tag);
      case SMALL_ATOM_EXT:
      case SMALL_ATOM_UTF8_EXT:
        return atomValue(this.#read(this.byte()), tag);
      case BINARY_EXT:
        return this.#read(this.#uint32()).toString('utf8');
      case STRING_EXT:
        return this.#read(this.#uint16()).toString('latin1');
      case NIL_EXT:
        return [];
      case LIST_EXT:
        return this.#list(depth);
      case SMALL_TUPLE_EXT:
        return this.#items(this.byte(), depth);
      case LARGE_TUPLE_EXT:
        return this.#items(this.#count(this.#uint32()), depth);
      case MAP_EXT:
        return this.#map(depth);
      default:
        throw new EtfDecodeError(`unsupported term tag ${String(tag)}`);
    }
  }

  #list(depth: number): unknown[] {
    const items = this.#items(this.#count(this.#uint32()), depth);
    // A proper list ends in NIL_EXT; improper lists (another tail term) have no JSON shape.
    if (this.byte() !== NIL_EXT) throw new EtfDecodeError('improper list');
    return items;
  }

  #items(count: number, depth: number): unknown[] {
    const items: unknown[] = [];
    for (let i = 0; i < count; i += 1) items.push(this.term(depth + 1));
    return items;
  }

  #map(depth: number): Record<string, unknown> {
    const pairs = this.#count(this.#uint32());
    const map: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (let i = 0; i < pairs; i += 1) {
      const keyTag = this.buffer[this.#offset];
      const binaryKey = keyTag === BINARY_EXT || keyTag === STRING_EXT;
      const atomKey = keyTag === SMALL_ATOM_EXT || keyTag === ATOM_EXT;
      if (!binaryKey && !(atomKey && this.atomKeys)) throw new EtfDecodeError('map keys must be binaries');
      const key = String(this.term(depth + 1));
      map[key] = this.term(depth + 1);
    }
    return { ...map };
  }

  /** Sign byte then little-endian magnitude; beyond 2^53 the digits are kept as a string. */
  #big(size: number): number | string {
    if (size > MAX_BIG_BYTES) throw new EtfDecodeError('integer wider than 64 bits');
    const sign = this.byte();
    const digits = this.#read(size);
    let magnitude = 0n;
    for (let i = size - 1; i >= 0; i -= 1) magnitude = (magnitude << 8n) | BigInt(digits[i] as number);
    const value = sign === 0 ? magnitude : -magnitude;
    const asNumber = Number(value);
    return Number.isSafeInteger(asNumber) ? asNumber : value.toString();
  }

  #finite(value: number): number {
    if (!Number.isFinite(value)) throw new EtfDecodeError('float is not finite');
    return value;
  }

  #count(count: number): number {
    if (count * MIN_TERM_BYTES > this.buffer.length - this.#offset) throw new EtfDecodeError('count past the end');
    return count;
  }

  #uint16(): number {
    return this.#read(2).readUInt16BE(0);
  }

  #uint32(): number {
    return this.#read(4).readUInt32BE(0);
  }

  #read(size: number): Buffer {
    this.#need(size);
    const slice = this.buffer.subarray(this.#offset, this.#offset + size);
    this.#offset += size;
    return slice;
  }

  #need(size: number): void {
    if (this.#offset + size > this.buffer.length) throw new EtfDecodeError('term runs past the end');
  }
}

function atomValue(name: Buffer, tag: number): unknown {
  const text = name.toString(tag === ATOM_UTF8_EXT || tag === SMALL_ATOM_UTF8_EXT ? 'utf8' : 'latin1');
  if (text === 'nil' || text === 'null') return null;
  if (text === 'true') return true;
  if (text === 'false') return false;
  return text;
}
