import type { ApplicationRecord } from '../../../actors/runtime/ports/records.js';
import { hashedImageKey } from '../../domain/blobKeys.js';
import { CassandraApplicationCommandStore } from './CassandraApplicationCommandStore.js';
import { CassandraApplicationStore } from './CassandraApplicationStore.js';
import { CassandraBlobStore } from './CassandraBlobStore.js';
import { writableKey } from './cassandraIds.js';
import { documents, textColumn, type CassandraSession } from './CassandraSession.js';

/**
 * Migration 6: every application whose bot has a user id of its own takes the bot's id, so a bot's user
 * id is its application's id, as on Discord (Discordeno derives the application id from the token's user
 * id; new bots are created that way). The application moves rather than the user because it has far
 * fewer references: its row and lookup rows, its commands and the key of its icon, against the bot
 * user's members, messages, reactions, DMs, relationships, overwrites and tokens (tokens embed the user
 * id, so keeping it keeps every issued token valid).
 *
 * Each application moves commands first, then its icon, then its rows; a run cut short leaves the old
 * application in place with some of its parts already moved, and the next run moves what is left.
 */
export async function rekeyBotApplications(session: CassandraSession, keepLock: () => Promise<void>): Promise<void> {
  const moving = documents<ApplicationRecord>(await session.rows('SELECT data FROM applications', [])).filter(
    (app) => app.bot_user_id !== null && app.bot_user_id !== app.id,
  );
  if (moving.length === 0) return;
  const scopes = await commandScopes(session, new Set(moving.map((app) => app.id)));
  for (const app of moving) {
    const newId = app.bot_user_id ?? app.id;
    await moveCommands(session, app.id, newId, scopes.get(app.id) ?? []);
    if (app.icon !== null && app.icon !== '') await moveIcon(session, app.id, newId, app.icon);
    await new CassandraApplicationStore(session).create({ ...app, id: newId });
    await session.batch([
      { query: 'DELETE FROM applications WHERE id = ?', params: [app.id] },
      {
        query: 'DELETE FROM applications_by_owner WHERE owner_id = ? AND application_id = ?',
        params: [app.owner_id, writableKey(app.id)],
      },
    ]);
    await keepLock();
  }
}

/** The command scopes (partitions) of each of `applicationIds`: one pass over the partition keys. */
async function commandScopes(session: CassandraSession, applicationIds: Set<string>): Promise<Map<string, string[]>> {
  const scopes = new Map<string, string[]>();
  for (const row of await session.rows('SELECT DISTINCT application_id, scope FROM application_commands', [])) {
    const applicationId = textColumn(row, 'application_id');
    const scope = textColumn(row, 'scope');
    if (applicationId === undefined || scope === undefined || !applicationIds.has(applicationId)) continue;
    scopes.set(applicationId, [...(scopes.get(applicationId) ?? []), scope]);
  }
  return scopes;
}

async function moveCommands(session: CassandraSession, oldId: string, newId: string, scopes: string[]): Promise<void> {
  const commands = new CassandraApplicationCommandStore(session);
  for (const scope of scopes) {
    const records = await commands.list(oldId, scope);
    await commands.saveAll(
      newId,
      scope,
      records.map((record) => ({ ...record, application_id: newId, data: { ...record.data, application_id: newId } })),
    );
    await session.write('DELETE FROM application_commands WHERE application_id = ? AND scope = ?', [oldId, scope]);
  }
}

async function moveIcon(session: CassandraSession, oldId: string, newId: string, icon: string): Promise<void> {
  const blobs = new CassandraBlobStore(session);
  const from = hashedImageKey('app-icons', oldId, icon);
  const blob = await blobs.get(from);
  if (blob === undefined) return; // moved by an earlier run, or never stored
  await blobs.put(hashedImageKey('app-icons', newId, icon), blob.data, blob.contentType);
  await blobs.delete(from);
}
