// The settings of the embedded node an overhead script measures: its own data dir, quiet, cheap password
// hashing for the accounts it registers, and no rate limit in the way of the load.

/** Environment for `loadConfig` of a measured node; `extra` names what the measurement turns on or off. */
export function overheadNodeEnv(dataDir: string, extra: Record<string, string>): Record<string, string> {
  return {
    PORT: '0',
    CHORUS_HOST: '127.0.0.1',
    CHORUS_DATA_DIR: dataDir,
    CHORUS_LOG_LEVEL: 'silent',
    CHORUS_PASSWORD_COST: '1024',
    CHORUS_GLOBAL_RATE_LIMIT: '1000000',
    CHORUS_MESSAGE_RATE_LIMIT: '1000000',
    ...extra,
  };
}
