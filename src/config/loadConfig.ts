import { Value } from '@sinclair/typebox/value';
import type { Config } from './Config.js';
import { allowedValues, CONFIG_OPTIONS, type ConfigOption } from './configOptions.js';
import { ConfigSchema } from './configSchema.js';

/**
 * A variable's value as its schema types it: integers by Number(); lists split on commas, trimmed,
 * lower-cased, empty items dropped; text as is. Unset or empty: the default.
 */
function read(option: ConfigOption, raw: string | undefined): unknown {
  if (raw === undefined || raw === '') return option.fallback;
  switch ((option.schema as { type?: unknown }).type) {
    case 'integer':
      return Number(raw);
    case 'array':
      return raw
        .split(',')
        .map((item) => item.trim().toLowerCase())
        .filter((item) => item !== '');
    default:
      return raw;
  }
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node = target;
  for (const part of parts.slice(0, -1)) node = (node[part] ??= {}) as Record<string, unknown>;
  node[parts[parts.length - 1] as string] = value;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/**
 * Builds the frozen Config from environment variables, each read and checked against its leaf of
 * ConfigSchema; throws listing every invalid one, e.g. `PORT (http.port) must be an integer
 * 0-65535, got "abc"`.
 */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<Record<string, string>> = {},
): Config {
  const source = { ...env, ...overrides };
  const config: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const option of CONFIG_OPTIONS) {
    const raw = source[option.env];
    const value = read(option, raw);
    if (!Value.Check(option.schema, value)) {
      problems.push(`${option.env} (${option.path}) must be ${allowedValues(option.schema)}, got "${raw ?? ''}"`);
    }
    setPath(config, option.path, value);
  }
  if (problems.length > 0) throw new Error(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  if (!Value.Check(ConfigSchema, config)) {
    const first = Value.Errors(ConfigSchema, config).First();
    throw new Error(`Invalid configuration: ${first?.path ?? ''} ${first?.message ?? 'does not match ConfigSchema'}`);
  }
  return deepFreeze(config);
}

/** The config with secrets masked, for logging. */
export function redactConfig(config: Config): Config {
  return { ...config, tokenSecret: config.tokenSecret ? '***' : '' };
}
