import type { TSchema } from '@sinclair/typebox';
import { Formats } from './configLeaves.js';
import { ConfigSchema } from './configSchema.js';

/** One setting: a leaf of ConfigSchema, where it sits in Config, and its variable. */
export interface ConfigOption {
  /** Dotted path in Config, e.g. `http.port`. */
  readonly path: string;
  readonly env: string;
  readonly description: string;
  readonly schema: TSchema;
  readonly fallback: unknown;
  /** The README's words for the default (the default itself when not given). */
  readonly shownDefault: string;
}

function field(schema: TSchema, key: string): unknown {
  return (schema as Record<string, unknown>)[key];
}

function shown(schema: TSchema): string {
  const explicit = field(schema, 'shownDefault');
  if (typeof explicit === 'string') return explicit;
  const fallback = field(schema, 'default');
  return Array.isArray(fallback) ? fallback.join(',') : String(fallback);
}

function collect(schema: TSchema, path: readonly string[], out: ConfigOption[]): void {
  const env = field(schema, 'env');
  if (typeof env === 'string') {
    const description = String(field(schema, 'description'));
    out.push({
      path: path.join('.'),
      env,
      description,
      schema,
      fallback: field(schema, 'default'),
      shownDefault: shown(schema),
    });
    return;
  }
  const properties = field(schema, 'properties') as Record<string, TSchema> | undefined;
  if (properties === undefined) throw new Error(`ConfigSchema: ${path.join('.')} has neither env nor properties`);
  for (const [key, child] of Object.entries(properties)) collect(child, [...path, key], out);
}

/** Every setting, in schema order. */
export const CONFIG_OPTIONS: readonly ConfigOption[] = (() => {
  const out: ConfigOption[] = [];
  collect(ConfigSchema, [], out);
  return out;
})();

const FORMAT_WORDS: Record<string, string> = {
  [Formats.publicUrl]: 'empty or an http(s) URL',
  [Formats.redisUrl]: 'a redis:// or rediss:// URL',
  [Formats.trustedProxy]: 'an IP address, a CIDR range, loopback, linklocal or uniquelocal',
};

/** What a schema allows, in words, for error messages. */
export function allowedValues(schema: TSchema): string {
  const literals = field(schema, 'anyOf') as { const: unknown }[] | undefined;
  if (literals !== undefined) return `one of ${literals.map((literal) => String(literal.const)).join(', ')}`;
  const min = field(schema, 'minimum') as number | undefined;
  const max = field(schema, 'maximum') as number | undefined;
  switch (field(schema, 'type')) {
    case 'integer':
      if (min !== undefined && max !== undefined) return `an integer ${min}-${max}`;
      return min === undefined ? 'an integer' : `an integer >= ${min}`;
    case 'array': {
      const least = field(schema, 'minItems') === 1 ? 'a non-empty' : 'a';
      return `${least} comma-separated list, each ${allowedValues(field(schema, 'items') as TSchema)}`;
    }
    default: {
      const format = field(schema, 'format');
      if (typeof format === 'string') return FORMAT_WORDS[format] ?? format;
      const pattern = field(schema, 'pattern');
      if (typeof pattern === 'string') return `text matching ${pattern}`;
      return field(schema, 'minLength') === 1 ? 'non-empty text' : 'text';
    }
  }
}
