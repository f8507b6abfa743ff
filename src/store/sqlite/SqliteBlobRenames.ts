import type { BlobRename, BlobRenameQueue } from '../../domain/blobRenames.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

/** The `blob_renames` table migrations fill (see migration 6), read by the embedded node at start. */
export class SqliteBlobRenames implements BlobRenameQueue {
  constructor(private readonly db: SqliteDatabase) {}

  pending(): Promise<BlobRename[]> {
    return this.db.call(() =>
      this.db.connection
        .prepare<[], BlobRename>('SELECT from_key AS "from", to_key AS "to" FROM blob_renames ORDER BY from_key')
        .all(),
    );
  }

  done(rename: BlobRename): Promise<void> {
    return this.db.call(() => {
      this.db.connection.prepare('DELETE FROM blob_renames WHERE from_key = ?').run(rename.from);
    });
  }
}
