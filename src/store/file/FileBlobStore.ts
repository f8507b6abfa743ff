import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { isValidContentType, type BlobStore, type StoredBlob } from '../../domain/BlobStore.js';

/** Separates the one-line header (the content type) from the bytes; a content type never holds it. */
const NEWLINE = 0x0a;

/**
 * Blobs as files under one directory (embedded mode: `<dataDir>/blobs`). Each key segment becomes a
 * path segment, percent-encoded so no key can name a file outside the root, and the file gets a
 * `.blob` suffix so key `a/b` (file `a/b.blob`) and key `a/b/c` (directory `a/b`) can both exist. A file holds the content
 * type on its first line, then the bytes, so one rename publishes both: a put writes a temporary file
 * beside the target and renames it over, and a crash mid-write leaves only a stray temporary file,
 * never a truncated blob.
 */
export class FileBlobStore implements BlobStore {
  constructor(private readonly root: string) {}

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    if (!isValidContentType(contentType)) throw new RangeError(`Invalid content type for blob ${key}`);
    const path = this.#pathOf(key);
    await mkdir(dirname(path), { recursive: true });
    const temporary = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      await writeFile(temporary, Buffer.concat([Buffer.from(`${contentType}\n`, 'latin1'), data]));
      await rename(temporary, path);
    } catch (thrown) {
      await rm(temporary, { force: true });
      throw thrown;
    }
  }

  async get(key: string): Promise<StoredBlob | undefined> {
    let file: Buffer;
    try {
      file = await readFile(this.#pathOf(key));
    } catch (thrown) {
      if (isMissing(thrown)) return undefined;
      throw thrown;
    }
    const split = file.indexOf(NEWLINE);
    if (split < 0) return undefined;
    return { contentType: file.toString('latin1', 0, split), data: file.subarray(split + 1) };
  }

  async delete(key: string): Promise<void> {
    await rm(this.#pathOf(key), { force: true });
  }

  #pathOf(key: string): string {
    const segments = key.split('/').map((segment) => {
      // '.' and '..' survive percent-encoding, so they are refused rather than encoded.
      if (segment === '' || segment === '.' || segment === '..') throw new RangeError(`Invalid blob key: ${key}`);
      return encodeURIComponent(segment);
    });
    return `${join(this.root, ...segments)}.blob`;
  }
}

function isMissing(thrown: unknown): boolean {
  const code = (thrown as { code?: unknown } | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
