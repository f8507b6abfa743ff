import type { WebhookStore } from '../runtime/ports/stores.js';

/**
 * Where webhooks live, for the edge (EdgeDeps.WebhookDirectory): a webhook is owned by its Channel
 * actor, but `/webhooks/{id}` names no channel, so one read of the id → channel index answers it.
 */
export class WebhookLookup {
  constructor(private readonly webhooks: WebhookStore) {}

  /** The channel of the webhook, or undefined for an unknown id. */
  async channelOf(webhookId: string): Promise<string | undefined> {
    return (await this.webhooks.get(webhookId))?.channel_id;
  }

  /** The channels of a guild that have webhooks, each once. */
  async channelsOfGuild(guildId: string): Promise<string[]> {
    return [...new Set((await this.webhooks.listByGuild(guildId)).map((webhook) => webhook.channel_id))];
  }
}
