import { FormatRegistry, Type, type TSchema } from '@sinclair/typebox';
import proxyaddr from 'proxy-addr';

/** Builders of ConfigSchema's leaves: each names its variable and documents itself. */

/** What a leaf carries besides its JSON schema. `shownDefault`: the README's words for the default. */
export interface Documented {
  readonly env: string;
  readonly description: string;
  readonly shownDefault?: string;
}

const documented = ({ env, description, shownDefault }: Documented): Documented =>
  shownDefault === undefined ? { env, description } : { env, description, shownDefault };

/** Bounds the schemas share. */
export const PORT_RANGE = { minimum: 0, maximum: 65_535 };
export const POSITIVE = { minimum: 1 };
export const NOT_NEGATIVE = { minimum: 0 };

/** Custom string formats (TypeBox checks `format` through this registry). */
export const Formats = {
  /** Empty (derive from each request) or an absolute http(s) URL. */
  publicUrl: 'chorus-public-url',
  /** A redis:// or rediss:// URL. */
  redisUrl: 'chorus-redis-url',
  /** What proxy-addr accepts: an IP address, a CIDR range or loopback / linklocal / uniquelocal. */
  trustedProxy: 'chorus-trusted-proxy',
} as const;

function protocolOf(text: string): string | undefined {
  try {
    return new URL(text).protocol;
  } catch {
    return undefined;
  }
}

FormatRegistry.Set(Formats.publicUrl, (text) => text === '' || ['http:', 'https:'].includes(protocolOf(text) ?? ''));
FormatRegistry.Set(Formats.redisUrl, (text) => ['redis:', 'rediss:'].includes(protocolOf(text) ?? ''));
FormatRegistry.Set(Formats.trustedProxy, (text) => {
  try {
    proxyaddr.compile([text]);
    return true;
  } catch {
    return false;
  }
});

export const integer = (meta: Documented, fallback: number, bounds: { minimum?: number; maximum?: number }) =>
  Type.Integer({ ...documented(meta), default: fallback, ...bounds });

export const text = (
  meta: Documented,
  fallback: string,
  rules: { minLength?: number; pattern?: string; format?: string } = {},
) => Type.String({ ...documented(meta), default: fallback, ...rules });

/** A comma-separated variable: items trimmed and lower-cased, empty items dropped. */
export const list = <Item extends TSchema>(meta: Documented, fallback: string[], item: Item, minItems = 0) =>
  Type.Array(item, { ...documented(meta), default: fallback, minItems });
