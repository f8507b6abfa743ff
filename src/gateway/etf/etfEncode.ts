import {
  BINARY_EXT,
  ETF_VERSION,
  INTEGER_EXT,
  LIST_EXT,
  MAP_EXT,
  NEW_FLOAT_EXT,
  NIL_EXT,
  SMALL_ATOM_EXT,
  SMALL_INTEGER_EXT,
} from './etfTags.js';

/** Field names go out as atoms (what BEAM clients match on); other keys, such as snowflakes, as binaries. */
const ATOM_KEY = /^[a-z_][a-z0-9_]*$/;
/** Event names (`t`) are atoms, as BEAM clients match `:MESSAGE_CREATE`; erlpack reads atoms as strings. */
const EVENT_NAME = /^[A-Z0-9_]{1,255}$/;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * Writes terms into one growing buffer: a gateway payload is encoded once per socket that wants ETF,
 * so the writer avoids per-term allocations.
 */
class TermWriter {
  #buffer: Buffer = Buffer.allocUnsafe(1024);
  #length = 0;

  bytes(): Buffer {
    return this.#buffer.subarray(0, this.#length);
  }

  byte(value: number): void {
    this.#reserve(1);
    this.#buffer[this.#length++] = value;
  }

  uint32(value: number): void {
    this.#reserve(4);
    this.#buffer.writeUInt32BE(value, this.#length);
    this.#length += 4;
  }

  value(value: unknown): void {
    if (value === null || value === undefined) this.atom('nil');
    else if (value === true) this.atom('true');
    else if (value === false) this.atom('false');
    else if (typeof value === 'string') this.binary(value);
    else if (typeof value === 'number') this.number(value);
    else if (typeof value === 'bigint') this.binary(value.toString());
    else if (Array.isArray(value)) this.list(value);
    else if (typeof value === 'object') this.map(value as Record<string, unknown>);
    else throw new TypeError(`ETF cannot carry a ${typeof value}`);
  }

  atom(name: string): void {
    this.byte(SMALL_ATOM_EXT);
    this.byte(name.length);
    this.#reserve(name.length);
    this.#length += this.#buffer.write(name, this.#length, 'latin1');
  }

  binary(text: string): void {
    const size = Buffer.byteLength(text, 'utf8');
    this.byte(BINARY_EXT);
    this.uint32(size);
    this.#reserve(size);
    this.#length += this.#buffer.write(text, this.#length, 'utf8');
  }

  number(value: number): void {
    if (Number.isInteger(value) && value >= 0 && value <= 255) {
      this.byte(SMALL_INTEGER_EXT);
      this.byte(value);
    } else if (Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX) {
      this.byte(INTEGER_EXT);
      this.#reserve(4);
      this.#buffer.writeInt32BE(value, this.#length);
      this.#length += 4;
    } else {
      // Timestamps and other wide numbers: a float, as erlpack writes them, so clients read a number back.
      this.byte(NEW_FLOAT_EXT);
      this.#reserve(8);
      this.#buffer.writeDoubleBE(value, this.#length);
      this.#length += 8;
    }
  }

  list(items: readonly unknown[]): void {
    if (items.length > 0) {
      this.byte(LIST_EXT);
      this.uint32(items.length);
      for (const item of items) this.value(item);
    }
    this.byte(NIL_EXT);
  }

  /** `atomField`: the one field whose string value goes out as an atom (the payload's event name `t`). */
  map(object: Record<string, unknown>, atomField?: string): void {
    const keys = Object.keys(object).filter((key) => object[key] !== undefined);
    this.byte(MAP_EXT);
    this.uint32(keys.length);
    for (const key of keys) {
      if (key.length < 256 && ATOM_KEY.test(key)) this.atom(key);
      else this.binary(key);
      const field = object[key];
      if (key === atomField && typeof field === 'string' && EVENT_NAME.test(field)) this.atom(field);
      else this.value(field);
    }
  }

  #reserve(extra: number): void {
    const needed = this.#length + extra;
    if (needed <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(needed, this.#buffer.length * 2));
    this.#buffer.copy(grown, 0, 0, this.#length);
    this.#buffer = grown;
  }
}

/**
 * Encodes a gateway payload (a JSON-shaped value) as ETF: version 131, maps with atom keys for field
 * names, the event name `t` as an atom, strings (snowflakes included) as binaries, null/true/false as atoms, small ints as 97/98 and
 * every other number as NEW_FLOAT_EXT. `undefined` fields are left out, as JSON.stringify does.
 */
export function encodeEtf(value: unknown): Buffer {
  const writer = new TermWriter();
  writer.byte(ETF_VERSION);
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    writer.map(value as Record<string, unknown>, 't');
  } else {
    writer.value(value);
  }
  return writer.bytes();
}
