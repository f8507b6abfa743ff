import { isValidContentType, type BlobStore, type StoredBlob } from '../../domain/BlobStore.js';
import { bigintColumn, textColumn, type CassandraSession } from './CassandraSession.js';

/**
 * 256 KiB per row: far below Cassandra's mutation and frame limits (a 25 MiB upload in one cell or
 * one batch would exceed the 16 MiB commit-log mutation cap), and few rows per blob.
 */
export const BLOB_CHUNK_BYTES = 256 * 1024;
/** Chunks written, and read per query, at a time: bounds a request's memory and the coordinator's load. */
const CHUNKS_AT_ONCE = 4;

/**
 * Blobs shared by every node of a cluster, in the `blobs` table: one partition per key, one row per
 * chunk, and the content type and size as static columns. A put writes every chunk first and the
 * static columns last, so a reader that finds the size finds every chunk it covers: a put that died
 * halfway leaves a partition without a size, which reads as missing. Chunks past the size (left by an
 * earlier, longer blob under the same key) are never read.
 */
export class CassandraBlobStore implements BlobStore {
  constructor(private readonly session: CassandraSession) {}

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    if (!isValidContentType(contentType)) throw new RangeError(`Invalid content type for blob ${key}`);
    const chunks = Array.from({ length: chunkCount(data.length) }, (_, index) => index);
    await this.session.forEach(chunks, CHUNKS_AT_ONCE, (chunk) =>
      this.session.write('INSERT INTO blobs (key, chunk, data) VALUES (?, ?, ?)', [
        key,
        chunk,
        data.subarray(chunk * BLOB_CHUNK_BYTES, (chunk + 1) * BLOB_CHUNK_BYTES),
      ]),
    );
    await this.session.write('UPDATE blobs SET content_type = ?, size = ? WHERE key = ?', [
      contentType,
      BigInt(data.length),
      key,
    ]);
  }

  async get(key: string): Promise<StoredBlob | undefined> {
    const head = await this.session.first('SELECT content_type, size FROM blobs WHERE key = ? LIMIT 1', [key]);
    const size = bigintColumn(head, 'size');
    const contentType = textColumn(head, 'content_type');
    if (size === undefined || contentType === undefined) return undefined;
    const total = Number(size);
    const parts: Buffer[] = [];
    for (let from = 0; from < chunkCount(total); from += CHUNKS_AT_ONCE) {
      const rows = await this.session.rows('SELECT chunk, data FROM blobs WHERE key = ? AND chunk >= ? AND chunk < ?', [
        key,
        from,
        Math.min(from + CHUNKS_AT_ONCE, chunkCount(total)),
      ]);
      for (const row of rows) parts.push(row.get('data') as Buffer);
    }
    const data = Buffer.concat(parts);
    // A chunk lost to a replica outage (or a torn put) must not be served as a shorter file.
    if (data.length !== total) return undefined;
    return { data, contentType };
  }

  async delete(key: string): Promise<void> {
    await this.session.write('DELETE FROM blobs WHERE key = ?', [key]);
  }
}

function chunkCount(bytes: number): number {
  return Math.ceil(bytes / BLOB_CHUNK_BYTES);
}
