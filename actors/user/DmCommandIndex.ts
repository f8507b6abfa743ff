import { usableInBotDm } from '../../src/domain/commandAccess.js';
import { commandIndexJson, type CommandIndexJson } from '../../src/domain/commandIndex.js';
import { GLOBAL_SCOPE, type ApplicationCommandStore } from '../runtime/ports/applicationCommandStore.js';
import type { ApplicationStore } from '../runtime/ports/stores.js';

/**
 * The command index of a DM, read straight from storage as WebhookLookup reads webhooks: applications and
 * their commands are records no actor holds in memory (applicationCommandHandlers.ts writes them). The edge
 * calls it for a DM channel the caller was shown by its Channel actor, with the bots among its recipients.
 */
export class DmCommandIndex {
  constructor(
    private readonly applications: ApplicationStore,
    private readonly commands: ApplicationCommandStore,
  ) {}

  /**
   * The global commands of the bots' applications that may be used in a DM with the bot (contexts BOT_DM,
   * or dm_permission when no contexts are set), as Discord's application command index.
   */
  async forBots(bots: readonly Record<string, unknown>[]): Promise<CommandIndexJson> {
    const entries = await Promise.all(
      bots.map(async (bot) => {
        const app = await this.applications.findByBotUser(String(bot['id']));
        if (!app) return { application: { ...emptyApp, bot }, commands: [] };
        const records = await this.commands.list(app.id, GLOBAL_SCOPE);
        const commands = records.map((record) => record.data).filter(usableInBotDm);
        return { application: { ...app, bot }, commands };
      }),
    );
    return commandIndexJson(entries);
  }
}

/** Stands in for a bot without an application (it lists no commands, so it is not shown). */
const emptyApp = { id: '0', name: '', description: '', icon: null, flags: 0 };
