/**
 * Follows edits made by other programs (an editor, git, a sync client). chokidar sits on the
 * OS's change notifications (inotify, FSEvents), so an idle vault costs no CPU; events are
 * gathered for a short moment and handed over as one batch of vault-relative paths.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type chokidarTypes from 'chokidar';
import type { Logger } from '../../kernel/logger.js';
import { TEMP_PREFIX } from '../../kernel/util/atomic-write.js';
import type { Layout } from './layout.js';

const SETTLE_MS = 40;
// Loaded when a watch starts: one-shot CLI runs never need it.
const require = createRequire(import.meta.url);

export function watchNoteFiles(root: string, layout: Layout, logger: Logger, onBatch: (relPaths: string[]) => Promise<void>): () => Promise<void> {
  const pending = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();

  const flush = () => {
    timer = undefined;
    const batch = [...pending];
    pending.clear();
    running = running.then(() => onBatch(batch)).catch((err: unknown) => logger.error({ err }, 'applying external changes failed'));
  };

  const ignored = (absolute: string): boolean => {
    const rel = path.relative(root, absolute);
    if (rel === '') return false;
    const parts = rel.split(path.sep);
    const name = parts[parts.length - 1] ?? '';
    if (parts.some((p) => p.startsWith('.') || p === 'node_modules' || p === layout.metaDir)) return true;
    return name.startsWith(TEMP_PREFIX);
  };

  const chokidar = require('chokidar') as typeof chokidarTypes;
  const watcher = chokidar.watch(root, {
    ignoreInitial: true,
    ignored,
    ...(layout.kind === 'typed' ? { depth: 1 } : {}),
    // Atomic saves (write temp, rename over) arrive as one change, not unlink + add.
    atomic: true,
  });
  const onPath = (absolute: string) => {
    if (!absolute.toLowerCase().endsWith('.md')) return;
    pending.add(path.relative(root, absolute).split(path.sep).join('/'));
    timer ??= setTimeout(flush, SETTLE_MS);
  };
  watcher.on('add', onPath).on('change', onPath).on('unlink', onPath);
  watcher.on('error', (err) => logger.warn({ err }, 'file watcher error'));

  return async () => {
    if (timer) clearTimeout(timer);
    await watcher.close();
    await running;
  };
}
