/** The scope of an application's global commands (guild commands are scoped by their guild id). */
export const GLOBAL_SCOPE = '0';

/** One application (slash) command: its keys, and the Discord command object as stored JSON. */
export interface ApplicationCommandRecord {
  readonly id: string;
  readonly application_id: string;
  /** A guild id, or GLOBAL_SCOPE. */
  readonly scope: string;
  /** The full command object as the API returns it (id, type, name, options, version, ...). */
  readonly data: Record<string, unknown>;
}

/**
 * Application commands, read by (application, scope): one partition per scope, at most 110 commands
 * in it (100 CHAT_INPUT + 5 USER + 5 MESSAGE), so `list` is the only read.
 */
export interface ApplicationCommandStore {
  /** The scope's commands in id order. */
  list(applicationId: string, scope: string): Promise<ApplicationCommandRecord[]>;
  /** Inserts or replaces one command. */
  save(command: ApplicationCommandRecord): Promise<void>;
  /** Replaces the scope's whole set with `commands` (bulk overwrite), in one transaction or batch. */
  saveAll(applicationId: string, scope: string, commands: readonly ApplicationCommandRecord[]): Promise<void>;
  /** Removes one command; absent is not an error. */
  delete(applicationId: string, scope: string, commandId: string): Promise<void>;
}
