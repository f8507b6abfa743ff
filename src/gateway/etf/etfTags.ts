/**
 * Erlang external term format tags (erts "External Term Format"). Only the ones the gateway writes or
 * accepts; the writer never emits the UTF-8 atom tags (118/119) because erlpack, the desktop client's
 * codec, cannot read them.
 */
export const ETF_VERSION = 131;
export const NEW_FLOAT_EXT = 70;
export const COMPRESSED_EXT = 80;
export const SMALL_INTEGER_EXT = 97;
export const INTEGER_EXT = 98;
export const FLOAT_EXT = 99;
export const ATOM_EXT = 100;
export const SMALL_TUPLE_EXT = 104;
export const LARGE_TUPLE_EXT = 105;
export const NIL_EXT = 106;
export const STRING_EXT = 107;
export const LIST_EXT = 108;
export const BINARY_EXT = 109;
export const SMALL_BIG_EXT = 110;
export const LARGE_BIG_EXT = 111;
export const SMALL_ATOM_EXT = 115;
export const MAP_EXT = 116;
export const ATOM_UTF8_EXT = 118;
export const SMALL_ATOM_UTF8_EXT = 119;
