/**
 * Follows edits made by other programs (an editor, git, a sync client). It watches folders,
 * not files: the OS reports every change inside a watched folder with the file's name, so a
 * typed vault needs one watch for the root and one per type folder, and start-up walks no
 * file (chokidar's per-file watches cost ~400 ms and 10,000 inotify watches at 10k notes).
 * Events are gathered for a short moment and handed over as one batch of relative paths.
 * fs-sqlite (both layouts) and markdown-git (flat) use it; decision 016 says why fs.watch.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../../kernel/logger.js';
import { TEMP_PREFIX } from './atomic-write.js';

/** How notes sit under the root: `typed` one level of folders (watched one by one), `flat` any depth (one recursive watch). */
export interface WatchLayout {
  kind: 'typed' | 'flat';
  /** The store's metadata folder, never reported. */
  metaDir: string;
}

const SETTLE_MS = 40;

export function watchNoteFiles(
  root: string,
  layout: WatchLayout,
  logger: Logger,
  onBatch: (relPaths: string[]) => Promise<void>,
): () => Promise<void> {
  const pending = new Set<string>();
  const watchers = new Map<string, fs.FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  let closed = false;

  const flush = () => {
    timer = undefined;
    const batch = [...pending];
    pending.clear();
    running = running
      .then(() => onBatch(batch))
      .catch((err: unknown) => logger.error({ err }, 'applying external changes failed'));
  };

  const skipped = (name: string) =>
    name.startsWith('.') || name === 'node_modules' || name === layout.metaDir || name.startsWith(TEMP_PREFIX);

  const note = (rel: string) => {
    if (!rel.toLowerCase().endsWith('.md') || rel.split('/').some(skipped)) return;
    pending.add(rel);
    timer ??= setTimeout(flush, SETTLE_MS);
  };

  const watchFolder = (rel: string, onName: (name: string) => void) => {
    if (closed || watchers.has(rel)) return;
    try {
      const watcher = fs.watch(path.join(root, rel), { persistent: true }, (_event, name) => {
        if (name) onName(name.toString());
      });
      watcher.on('error', (err) => {
        // The folder went away (a type deleted or renamed): forget it; the root watch sees it.
        watchers.delete(rel);
        logger.debug({ err, folder: rel }, 'folder watch ended');
      });
      watchers.set(rel, watcher);
    } catch (err) {
      logger.warn({ err, folder: rel || '.' }, 'cannot watch a folder; its external edits show after a restart');
    }
  };

  const watchTypeFolder = (name: string) => watchFolder(name, (file) => note(`${name}/${file}`));

  if (layout.kind === 'typed') {
    watchFolder('', (name) => {
      if (skipped(name)) return;
      // A new type folder (or one moved in): watch it, and pick up the notes it arrived with.
      fs.stat(path.join(root, name), (err, stats) => {
        if (err || !stats.isDirectory()) return;
        watchTypeFolder(name);
        fs.readdir(path.join(root, name), (readErr, files) => {
          if (!readErr) for (const file of files) note(`${name}/${file}`);
        });
      });
    });
    for (const entry of fs.readdirSync(root, { withFileTypes: true })) {
      if (entry.isDirectory() && !skipped(entry.name)) watchTypeFolder(entry.name);
    }
  } else {
    try {
      const watcher = fs.watch(root, { recursive: true, persistent: true }, (_event, name) => {
        if (name) note(name.toString().split(path.sep).join('/'));
      });
      watcher.on('error', (err) => logger.warn({ err }, 'vault watch failed; external edits show after a restart'));
      watchers.set('', watcher);
    } catch (err) {
      logger.warn({ err }, 'cannot watch the vault; external edits show after a restart');
    }
  }

  return async () => {
    closed = true;
    if (timer) clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
    watchers.clear();
    await running;
  };
}
