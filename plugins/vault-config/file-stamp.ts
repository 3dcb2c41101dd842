/**
 * The identity of a file's current version (inode, size, modification and change times): one
 * stat tells whether a cached read of a small, hot file (the config, a type's description) is
 * still the file on disk, whoever wrote it. Undefined when the file does not exist.
 */
import fs from 'node:fs/promises';

const inFlight = new Map<string, Promise<string | undefined>>();

/** Concurrent callers (a batch of writes all checking the config) share one stat. */
export function fileStamp(absolute: string): Promise<string | undefined> {
  let pending = inFlight.get(absolute);
  if (!pending) {
    pending = statStamp(absolute).finally(() => inFlight.delete(absolute));
    inFlight.set(absolute, pending);
  }
  return pending;
}

async function statStamp(absolute: string): Promise<string | undefined> {
  try {
    const st = await fs.stat(absolute, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return undefined;
  }
}
