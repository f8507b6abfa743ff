import type { WebhookRecord } from '../../../actors/runtime/ports/records.js';
import type { WebhookStore } from '../../../actors/runtime/ports/stores.js';
import { fromJson, type SqliteDatabase } from './SqliteDatabase.js';

interface WebhookRow {
  readonly id: string;
  readonly channel_id: string;
  readonly guild_id: string | null;
  readonly data: string;
}

function toRow(webhook: WebhookRecord): WebhookRow {
  return { id: webhook.id, channel_id: webhook.channel_id, guild_id: webhook.guild_id, data: JSON.stringify(webhook) };
}

const ORDER = 'ORDER BY length(id), id';

/** WebhookStore on SQLite: one table, indexed by channel and by guild. */
export class SqliteWebhookStore implements WebhookStore {
  readonly #insert;
  readonly #update;
  readonly #byId;
  readonly #byChannel;
  readonly #byGuild;
  readonly #delete;

  constructor(private readonly db: SqliteDatabase) {
    const c = db.connection;
    this.#insert = c.prepare<WebhookRow>(
      'INSERT INTO webhooks (id, channel_id, guild_id, data) VALUES (@id, @channel_id, @guild_id, @data)',
    );
    this.#update = c.prepare<WebhookRow>(
      'UPDATE webhooks SET channel_id = @channel_id, guild_id = @guild_id, data = @data WHERE id = @id',
    );
    this.#byId = c.prepare<[string], string>('SELECT data FROM webhooks WHERE id = ?').pluck();
    this.#byChannel = c.prepare<[string], string>(`SELECT data FROM webhooks WHERE channel_id = ? ${ORDER}`).pluck();
    this.#byGuild = c.prepare<[string], string>(`SELECT data FROM webhooks WHERE guild_id = ? ${ORDER}`).pluck();
    this.#delete = c.prepare<[string]>('DELETE FROM webhooks WHERE id = ?');
  }

  create(webhook: WebhookRecord): Promise<void> {
    return this.db.call(() => void this.#insert.run(toRow(webhook)));
  }

  update(webhook: WebhookRecord): Promise<void> {
    return this.db.call(() => void this.#update.run(toRow(webhook)));
  }

  get(id: string): Promise<WebhookRecord | undefined> {
    return this.db.call(() => {
      const data = this.#byId.get(id);
      return data === undefined ? undefined : fromJson<WebhookRecord>(data);
    });
  }

  listByChannel(channelId: string): Promise<WebhookRecord[]> {
    return this.db.call(() => this.#byChannel.all(channelId).map((data) => fromJson<WebhookRecord>(data)));
  }

  listByGuild(guildId: string): Promise<WebhookRecord[]> {
    return this.db.call(() => this.#byGuild.all(guildId).map((data) => fromJson<WebhookRecord>(data)));
  }

  delete(id: string): Promise<void> {
    return this.db.call(() => void this.#delete.run(id));
  }
}
