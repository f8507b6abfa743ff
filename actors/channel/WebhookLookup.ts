import { UnauthorizedError } from '../../src/domain/errors.js';
import type { WebhookStore } from '../runtime/ports/stores.js';
import { tokenMatches } from './webhookAccess.js';

/**
 * Where webhooks live, for the edge (EdgeDeps.WebhookDirectory): a webhook is owned by its Channel
 * actor, but `/webhooks/{id}` names no channel, so one read of the id → channel index answers it.
 */
export class WebhookLookup {
  constructor(private readonly webhooks: WebhookStore) {}

  /**
   * The channel of the webhook, or undefined for an unknown id. With a `token` (the `/webhooks/{id}/{token}`
   * routes), a wrong one is refused here (401 50027), before the edge looks at the request's body.
   */
  async channelOf(webhookId: string, token?: string): Promise<string | undefined> {
    const webhook = await this.webhooks.get(webhookId);
    if (webhook && token !== undefined && !tokenMatches(webhook.token, token)) {
      throw new UnauthorizedError('Invalid Webhook Token', 50_027);
    }
    return webhook?.channel_id;
  }

  /** The channels of a guild that have webhooks, each once. */
  async channelsOfGuild(guildId: string): Promise<string[]> {
    return [...new Set((await this.webhooks.listByGuild(guildId)).map((webhook) => webhook.channel_id))];
  }
}
