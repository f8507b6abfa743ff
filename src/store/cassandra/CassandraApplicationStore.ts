import type { ApplicationRecord } from '../../../actors/runtime/ports/records.js';
import type { ApplicationStore } from '../../../actors/runtime/ports/stores.js';
import { writableKey } from './cassandraIds.js';
import { documentOf, documents, textColumn, type CassandraSession, type Cql } from './CassandraSession.js';

/** The statements that write `application` and its lookup rows. */
function upsert(application: ApplicationRecord): Cql[] {
  const data = JSON.stringify(application);
  const statements: Cql[] = [
    { query: 'INSERT INTO applications (id, data) VALUES (?, ?)', params: [application.id, data] },
    {
      query: 'INSERT INTO applications_by_owner (owner_id, application_id, data) VALUES (?, ?, ?)',
      params: [application.owner_id, writableKey(application.id), data],
    },
  ];
  if (application.bot_user_id !== null) {
    statements.push({
      query: 'INSERT INTO applications_by_bot_user (bot_user_id, application_id) VALUES (?, ?)',
      params: [application.bot_user_id, application.id],
    });
  }
  return statements;
}

/**
 * ApplicationStore on Cassandra: `applications` by id, a copy per owner for listByOwner (one partition
 * read), and a bot user → application lookup; all written in one logged batch.
 */
export class CassandraApplicationStore implements ApplicationStore {
  constructor(private readonly session: CassandraSession) {}

  async create(application: ApplicationRecord): Promise<void> {
    await this.session.batch(upsert(application));
  }

  async get(id: string): Promise<ApplicationRecord | undefined> {
    return documentOf<ApplicationRecord>(await this.session.first('SELECT data FROM applications WHERE id = ?', [id]));
  }

  /**
   * Replaces the record (an application that does not exist is left absent), moving its lookup rows
   * when the owner or the bot user changed. Read-then-write is safe: one actor owns each application.
   */
  async update(application: ApplicationRecord): Promise<void> {
    const stored = await this.get(application.id);
    if (stored === undefined) return;
    const statements = upsert(application);
    if (stored.owner_id !== application.owner_id) {
      statements.push({
        query: 'DELETE FROM applications_by_owner WHERE owner_id = ? AND application_id = ?',
        params: [stored.owner_id, writableKey(stored.id)],
      });
    }
    if (stored.bot_user_id !== null && stored.bot_user_id !== application.bot_user_id) {
      statements.push({
        query: 'DELETE FROM applications_by_bot_user WHERE bot_user_id = ?',
        params: [stored.bot_user_id],
      });
    }
    await this.session.batch(statements);
  }

  /** The owner's applications in id order. */
  async listByOwner(ownerId: string): Promise<ApplicationRecord[]> {
    return documents<ApplicationRecord>(
      await this.session.rows('SELECT data FROM applications_by_owner WHERE owner_id = ?', [ownerId]),
    );
  }

  async findByBotUser(botUserId: string): Promise<ApplicationRecord | undefined> {
    const row = await this.session.first('SELECT application_id FROM applications_by_bot_user WHERE bot_user_id = ?', [
      botUserId,
    ]);
    const applicationId = textColumn(row, 'application_id');
    const application = applicationId === undefined ? undefined : await this.get(applicationId);
    return application?.bot_user_id === botUserId ? application : undefined;
  }
}
