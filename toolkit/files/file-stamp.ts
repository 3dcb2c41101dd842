/**
 * The identity of a file's current version (inode, size, modification and change times): one
 * stat tells whether a cached read of a small, hot file (the config, a type's description) is
 * still the file on disk, whoever wrote it. Undefined when the file does not exist.
 * Every write asks, so the stat is synchronous: microseconds, no thread-pool trip (decision 010).
 */
import fs from 'node:fs';

export async function fileStamp(absolute: string): Promise<string | undefined> {
  try {
    const st = fs.statSync(absolute, { bigint: true, throwIfNoEntry: false });
    return st ? `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}` : undefined;
  } catch {
    return undefined;
  }
}
