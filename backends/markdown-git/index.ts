/**
 * markdown-git (seed 002, agent-memory): entries are plain markdown files named
 * `slug id__XXXXXX.md`; id, title, tags, links and status are derived from the filename, the
 * body and the folder, `created` / `updated` from git history (one walk, cached by HEAD; a
 * read before it asks git for its entry alone, decision 034). Storage only: no search index,
 * no types, no frontmatter.
 */
import path from 'node:path';
import { z } from 'zod';
import { defineBackend, requireFolder } from '../../kernel/backend.js';
import { sweepTempFiles } from '../../toolkit/files/temp-sweep.js';
import { describeSkipped } from '../../toolkit/files/skip-summary.js';
import { listTempFiles } from './entry-index.js';
import { idFromFilename } from '../../toolkit/agent-memory/entry-name.js';
import { AutoCommitter } from './git/auto-commit.js';
import { GitTimestamps } from './git/timestamps.js';
import { LocalCreated } from './local-created.js';
import { MarkdownGitStore } from './store.js';
import { journalWindow, journalWindowOption } from '../../toolkit/files/file-journal.js';
import { unwritableFolder } from '../../toolkit/files/file-faults.js';

/** How long the entry scan and history walk wait after the open unless a call needs them sooner. */
const OPEN_DELAY_MS = 200;

export const markdownGitOptions = z
  .object({
    metaDir: z
      .string()
      .regex(/^\.[\w.-]+$/, 'a hidden folder name such as .notekernel')
      .default('.notekernel')
      .describe('metadata folder inside the memory root (timestamp cache, locks); it git-ignores itself'),
    autoCommit: z
      .boolean()
      .default(false)
      .describe(
        'commit every write (capture, rename, archive, delete) with isomorphic-git; a plain folder gets `git init` first',
      ),
    journal: journalWindowOption,
    commitAuthor: z
      .object({ name: z.string().min(1), email: z.string().min(3) })
      .strict()
      .default({ name: 'notekernel', email: 'notekernel@localhost' })
      .describe('author of auto-commits'),
  })
  .strict();

export type MarkdownGitOptions = z.infer<typeof markdownGitOptions>;

export const markdownGitBackend = defineBackend<MarkdownGitOptions>({
  id: 'markdown-git',
  kind: 'storage',
  description:
    'Pure markdown entries (`slug id__XXXXXX.md`) with git-derived timestamps; everything else is derived from the file.',
  folder: 'required',
  capabilities: ['files', 'watch', 'journal', 'git-history'],
  extensions: ['refresh', 'batch-update'],
  options: markdownGitOptions as z.ZodType<MarkdownGitOptions>,
  async create(ctx) {
    const { options, logger, progress } = ctx;
    const vaultRoot = requireFolder(ctx, 'markdown-git');
    // A folder this user may not write is served read-only, without being asked (decision 038).
    const unwritable = ctx.readOnly ? undefined : await unwritableFolder(vaultRoot);
    const readOnly = ctx.readOnly || unwritable !== undefined;
    const metaDir = path.join(vaultRoot, options.metaDir);
    const idOf = (relPath: string) => idFromFilename(path.posix.basename(relPath));
    const timestamps = new GitTimestamps(vaultRoot, path.join(metaDir, 'git-timestamps.json'), idOf, logger);
    const committer =
      options.autoCommit && !readOnly ? new AutoCommitter(vaultRoot, options.commitAuthor, logger) : undefined;
    if (committer) await committer.ensureRepository();
    timestamps.open();
    const localCreated = new LocalCreated(path.join(metaDir, 'created.json'));
    const store = new MarkdownGitStore({
      root: vaultRoot,
      metaDir: options.metaDir,
      logger,
      timestamps,
      localCreated,
      readOnly,
      journalWindow: journalWindow(options.journal),
      ...(committer ? { committer } : {}),
    });
    store.openInBackground(async () => {
      // A kill mid-write leaves a temp file that no later write reuses: swept at open.
      if (!readOnly) sweepTempFiles(vaultRoot, await listTempFiles(vaultRoot), logger);
      // The entry scan (file I/O) and the history walk (CPU) overlap. The walk is saved as soon
      // as it is done: reads answer before it (decision 034), so a short session may end first.
      const walked = timestamps.sync().then(() => (readOnly ? undefined : timestamps.save()));
      const [report] = await Promise.all([store.rescan(progress), walked]);
      logger.info(
        {
          entries: store.index.size,
          notEntries: store.index.notEntries.length,
          skipped: report.skipped.length,
          git: timestamps.repository !== undefined,
        },
        'memory root ready',
      );
      if (report.skipped.length) logger.warn({ skippedFiles: report.skipped.length }, describeSkipped(report.skipped));
    }, OPEN_DELAY_MS);
    return { store, ...(unwritable ? { readOnly: unwritable } : {}) };
  },
});
