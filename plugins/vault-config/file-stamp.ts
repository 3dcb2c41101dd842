/**
 * The identity of a file's current version (inode, size, modification and change times): one
 * stat tells whether a cached read of a small, hot file (the config, a type's description) is
 * still the file on disk, whoever wrote it. Undefined when the file does not exist.
 */
import fs from 'node:fs/promises';

export async function fileStamp(absolute: string): Promise<string | undefined> {
  try {
    const st = await fs.stat(absolute, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return undefined;
  }
}
