/**
 * The temp folders a test file made, removed after its last test (setup-env.ts): a test that
 * forgets its own clean-up, or fails before it, leaves nothing in the system temp folder.
 */
import fs from 'node:fs/promises';

const made = new Set<string>();

export function track(dir: string): string {
  made.add(dir);
  return dir;
}

export async function removeTracked(): Promise<void> {
  await Promise.all([...made].map((dir) => fs.rm(dir, { recursive: true, force: true })));
  made.clear();
}
