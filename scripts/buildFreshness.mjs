// Whether dist/ holds a build at least as new as the sources: shared by scripts/build.mjs (npm start's
// prestart) and bin/chorus.mjs (the CLI launcher). Plain JavaScript: it runs before anything is compiled.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** What a build is compiled from: its folders, and the configuration files that change its output. */
const SOURCE_DIRS = ['src', 'actors', 'cluster', 'proto/gen'];
const CONFIG_FILES = ['tsconfig.json', 'tsconfig.build.json'];

/** The newest mtime under a path (0 when it does not exist). */
function newestMtimeMs(path) {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  // A directory's own mtime moves when a file is added, removed or renamed in it.
  let newest = stat.mtimeMs;
  for (const name of readdirSync(path)) newest = Math.max(newest, newestMtimeMs(join(path, name)));
  return newest;
}

/**
 * True when the build stamp (touched with each successful build's start time) exists and no source is newer.
 * Without sources (an image ships dist/ only) the build is all there is.
 */
export function builtAfterSources(root, stamp) {
  const built = statSync(stamp, { throwIfNoEntry: false });
  if (!built) return false;
  const sources = [...SOURCE_DIRS, ...CONFIG_FILES].map((path) => newestMtimeMs(join(root, path)));
  return Math.max(...sources) <= built.mtimeMs;
}
