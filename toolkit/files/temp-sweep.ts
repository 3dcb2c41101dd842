/**
 * Removes temp files (`.nk-tmp-<pid>-…`, atomic-write.ts) that an interrupted write left. A temp
 * file is abandoned when no live writer can hold it:
 * - its writer's pid is not alive;
 * - or it names this very process's pid but is older than this process: a restarted container
 *   reuses small pids, so "pid alive" alone kept such files forever;
 * - or it is older than STALE_MS: no write keeps its temp file that long, whoever holds the pid.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../kernel/logger.js';
import { TEMP_PREFIX } from './atomic-write.js';
import { isAlive } from './file-lock.js';

const STALE_MS = 10 * 60 * 1000;
const PROCESS_STARTED_MS = Date.now() - process.uptime() * 1000;

export function isAbandonedTemp(name: string, mtimeMs: number, now = Date.now()): boolean {
  if (!name.startsWith(TEMP_PREFIX)) return false;
  if (now - mtimeMs > STALE_MS) return true;
  const pid = Number.parseInt(name.slice(TEMP_PREFIX.length), 10);
  if (!Number.isInteger(pid) || pid <= 0) return true;
  if (pid === process.pid) return mtimeMs < PROCESS_STARTED_MS;
  return !isAlive(pid);
}

/** `rels` are root-relative, `/`-separated temp files; the abandoned ones are removed and logged. */
export function sweepTempFiles(root: string, rels: readonly string[], logger: Logger): number {
  let removed = 0;
  for (const rel of rels) {
    const absolute = path.join(root, ...rel.split('/'));
    const stats = fs.lstatSync(absolute, { throwIfNoEntry: false });
    if (!stats?.isFile() || !isAbandonedTemp(path.basename(rel), stats.mtimeMs)) continue;
    try {
      fs.rmSync(absolute, { force: true });
      removed++;
      logger.info({ path: rel }, 'removed a temp file left by an interrupted write');
    } catch (err) {
      logger.warn({ err, path: rel }, 'could not remove an abandoned temp file');
    }
  }
  return removed;
}
