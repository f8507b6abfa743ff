/** Structured logger: one JSON line per event, with a stable event name. */
export interface Logger {
  info(event: string, fields?: Record<string, unknown>): void;
  warn(event: string, fields?: Record<string, unknown>): void;
  error(event: string, fields?: Record<string, unknown>): void;
  child(bindings: Record<string, unknown>): Logger;
}

/** Log level below which events are dropped. */
export type LogLevel = 'info' | 'warn' | 'error' | 'silent';

const RANK: Record<LogLevel, number> = { info: 0, warn: 1, error: 2, silent: 3 };

function errorFields(value: unknown): unknown {
  return value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value;
}

/** A logger writing JSON lines to a stream (stderr by default). */
export function createLogger(level: LogLevel, bindings: Record<string, unknown> = {}, out = process.stderr): Logger {
  const write = (at: Exclude<LogLevel, 'silent'>, event: string, fields: Record<string, unknown> = {}): void => {
    if (RANK[at] < RANK[level]) return;
    const entry: Record<string, unknown> = { t: new Date().toISOString(), level: at, event, ...bindings };
    for (const [key, value] of Object.entries(fields)) entry[key] = errorFields(value);
    out.write(`${JSON.stringify(entry)}\n`);
  };
  return {
    info: (event, fields) => {
      write('info', event, fields);
    },
    warn: (event, fields) => {
      write('warn', event, fields);
    },
    error: (event, fields) => {
      write('error', event, fields);
    },
    child: (more) => createLogger(level, { ...bindings, ...more }, out),
  };
}
