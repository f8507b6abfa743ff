import type { InstanceCounter, InstanceCounts } from '../../domain/InstanceCounter.js';
import type { SqliteDatabase } from './SqliteDatabase.js';

/**
 * Instance counts from the instance_counts table, which triggers keep as rows are inserted and deleted
 * (migration 8): one small read, however many messages the file holds.
 */
export class SqliteInstanceCounter implements InstanceCounter {
  constructor(private readonly db: SqliteDatabase) {}

  counts(): Promise<InstanceCounts> {
    return this.db.call(() => {
      // Prepared per call (microseconds): a file opened with an older schema (tests) has no table to prepare on.
      const read = this.db.connection.prepare<[], { name: string; count: number }>(
        'SELECT name, count FROM instance_counts',
      );
      const counts = { user: 0, guild: 0, message: 0, members: 0 };
      for (const { name, count } of read.all()) {
        if (name in counts) counts[name as keyof typeof counts] = count;
      }
      return counts;
    });
  }
}
