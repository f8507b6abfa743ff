/** An application as the command index lists it, with its bot's public user record. */
export interface IndexedApplication {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly icon: string | null;
  readonly flags: number;
  readonly bot: Record<string, unknown> | null;
}

/** One application and the commands of it the caller may use. */
export interface IndexEntry {
  readonly application: IndexedApplication;
  readonly commands: readonly Record<string, unknown>[];
}

/** Discord's application command index: `{ applications, application_commands, version }`. */
export interface CommandIndexJson {
  applications: Record<string, unknown>[];
  application_commands: Record<string, unknown>[];
  /** The newest command version in the index ("0" when empty): it changes whenever a listed command does. */
  version: string;
}

/**
 * The index user clients load to list the slash and context-menu commands they may use: the applications
 * that have at least one such command (with bot_id and the bot's user), then every command, in order.
 */
export function commandIndexJson(entries: readonly IndexEntry[]): CommandIndexJson {
  const listed = entries.filter((entry) => entry.commands.length > 0);
  const commands = listed.flatMap((entry) => entry.commands.map((command) => ({ ...command })));
  let version = 0n;
  for (const command of commands) {
    const value = command['version'];
    if (typeof value === 'string' && /^\d+$/.test(value) && BigInt(value) > version) version = BigInt(value);
  }
  return {
    applications: listed.map(({ application }) => ({
      id: application.id,
      name: application.name,
      description: application.description,
      icon: application.icon,
      flags: application.flags,
      ...(application.bot ? { bot_id: application.bot['id'], bot: application.bot } : {}),
    })),
    application_commands: commands,
    version: version.toString(),
  };
}

/** The older search route's filters: a command type, a name prefix, how many, and whether to list applications. */
export interface CommandSearch {
  readonly type?: number;
  readonly query: string;
  readonly limit: number;
  readonly includeApplications: boolean;
}

/**
 * `GET /channels/{id}/application-commands/search`: the index narrowed to one command type and a name
 * prefix (case-insensitive), at most `limit` commands, the applications of those only when asked, and an
 * empty cursor (everything fits one page).
 */
export function commandSearchJson(index: CommandIndexJson, search: CommandSearch): Record<string, unknown> {
  const query = search.query.toLowerCase();
  const commands = index.application_commands
    .filter((command) => search.type === undefined || (command['type'] ?? 1) === search.type)
    .filter((command) => String(command['name']).toLowerCase().startsWith(query))
    .slice(0, search.limit);
  const appIds = new Set(commands.map((command) => command['application_id']));
  return {
    applications: search.includeApplications ? index.applications.filter((app) => appIds.has(app['id'])) : [],
    application_commands: commands,
    cursor: { previous: null, next: null, repaired: null },
  };
}
