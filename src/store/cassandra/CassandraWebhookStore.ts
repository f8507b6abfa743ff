import type { WebhookRecord } from '../../../actors/runtime/ports/records.js';
import type { WebhookStore } from '../../../actors/runtime/ports/stores.js';
import { documentOf, documents, type CassandraSession, type Cql } from './CassandraSession.js';

/** The statements that write `webhook` by id, in its channel's listing and in its guild's. */
function upsert(webhook: WebhookRecord): Cql[] {
  const data = JSON.stringify(webhook);
  const statements: Cql[] = [
    { query: 'INSERT INTO webhooks (id, data) VALUES (?, ?)', params: [webhook.id, data] },
    {
      query: 'INSERT INTO webhooks_by_channel (channel_id, id, data) VALUES (?, ?, ?)',
      params: [webhook.channel_id, webhook.id, data],
    },
  ];
  if (webhook.guild_id !== null) {
    statements.push({
      query: 'INSERT INTO webhooks_by_guild (guild_id, id, data) VALUES (?, ?, ?)',
      params: [webhook.guild_id, webhook.id, data],
    });
  }
  return statements;
}

/** Oldest first (ids are snowflakes: shorter is older, then lexical). */
function byId(a: WebhookRecord, b: WebhookRecord): number {
  return a.id.length - b.id.length || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/**
 * WebhookStore on Cassandra: `webhooks` by id, with copies per channel and per guild for the listings,
 * all written in one logged batch. One Channel actor owns each webhook, so read-then-write is safe.
 */
export class CassandraWebhookStore implements WebhookStore {
  constructor(private readonly session: CassandraSession) {}

  async create(webhook: WebhookRecord): Promise<void> {
    await this.session.batch(upsert(webhook));
  }

  async update(webhook: WebhookRecord): Promise<void> {
    if ((await this.get(webhook.id)) === undefined) return;
    await this.session.batch(upsert(webhook));
  }

  async get(id: string): Promise<WebhookRecord | undefined> {
    return documentOf<WebhookRecord>(await this.session.first('SELECT data FROM webhooks WHERE id = ?', [id]));
  }

  async listByChannel(channelId: string): Promise<WebhookRecord[]> {
    const rows = await this.session.rows('SELECT data FROM webhooks_by_channel WHERE channel_id = ?', [channelId]);
    return documents<WebhookRecord>(rows).sort(byId);
  }

  async listByGuild(guildId: string): Promise<WebhookRecord[]> {
    const rows = await this.session.rows('SELECT data FROM webhooks_by_guild WHERE guild_id = ?', [guildId]);
    return documents<WebhookRecord>(rows).sort(byId);
  }

  async delete(id: string): Promise<void> {
    const webhook = await this.get(id);
    if (webhook === undefined) return;
    const statements: Cql[] = [
      { query: 'DELETE FROM webhooks WHERE id = ?', params: [id] },
      { query: 'DELETE FROM webhooks_by_channel WHERE channel_id = ? AND id = ?', params: [webhook.channel_id, id] },
    ];
    if (webhook.guild_id !== null) {
      statements.push({
        query: 'DELETE FROM webhooks_by_guild WHERE guild_id = ? AND id = ?',
        params: [webhook.guild_id, id],
      });
    }
    await this.session.batch(statements);
  }
}
