/**
 * fs-sqlite: markdown files with YAML frontmatter in type folders, indexed in SQLite
 * (better-sqlite3, FTS5) inside the vault's metadata folder. Storage and search in one.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineBackend, requireFolder } from '../../kernel/backend.js';
import { IndexDb } from './index-db.js';
import { openIndex } from './index-open.js';
import { unwritableFolder } from '../../toolkit/files/file-faults.js';
import { VaultFaults } from '../../kernel/faults.js';
import { createSearchIndex } from './search.js';
import { prepareForSearch } from './search-upkeep.js';
import { FsSqliteStore } from './store.js';
import { journalWindow, journalWindowOption } from '../../toolkit/files/file-journal.js';

export const fsSqliteOptions = z
  .object({
    metaDir: z
      .string()
      .regex(/^\.[\w.-]+$/, 'a hidden folder name such as .notekernel')
      .default('.notekernel')
      .describe('metadata folder inside the vault'),
    layout: z
      .enum(['typed', 'flat'])
      .default('typed')
      .describe('typed: <type>/<note>.md; flat: any .md under the root'),
    defaultType: z
      .string()
      .min(1)
      .optional()
      .describe(
        "type a note created without one gets (general when unset); set here, it overrides a vault's own default_note_type",
      ),
    indexFile: z
      .string()
      .regex(/^[\w.-]+$/)
      .default('notekernel.db'),
    underscoreNotes: z
      .boolean()
      .default(false)
      .describe('flat layout: `_`-prefixed files are notes too (typed keeps them for its types)'),
    journal: journalWindowOption,
    readHardLinks: z
      .boolean()
      .default(false)
      .describe(
        'read note files that have other hard links (off: such a file may be one outside the vault, so it is skipped with a warning)',
      ),
  })
  .strict();

export type FsSqliteOptions = z.infer<typeof fsSqliteOptions>;

export const fsSqliteBackend = defineBackend<FsSqliteOptions>({
  id: 'fs-sqlite',
  kind: 'both',
  description: 'Markdown files with YAML frontmatter in type folders, indexed in SQLite (FTS5).',
  folder: 'required',
  capabilities: [
    'typed-notes',
    'free-metadata',
    'files',
    'watch',
    'journal',
    'full-text',
    'regex',
    'metadata-query',
    'sql',
    'index-db',
  ],
  extensions: ['refresh', 'batch-update', 'index-pass', 'snapshot-token', 'early-reads'],
  options: fsSqliteOptions as z.ZodType<FsSqliteOptions>,
  async create(ctx) {
    const { options, logger, progress } = ctx;
    const faults = ctx.faults ?? new VaultFaults(logger);
    const vaultRoot = requireFolder(ctx, 'fs-sqlite');
    const readOnly = await unwritableFolder(vaultRoot);
    const metaDir = path.join(vaultRoot, options.metaDir);
    // A folder it may not make is told by the index's open, which then serves a stand-in.
    if (!readOnly) await fs.mkdir(metaDir, { recursive: true }).catch(() => undefined);
    const opened = openIndex(path.join(metaDir, options.indexFile), vaultRoot, logger);
    if (opened.fault)
      faults.report(
        'index file',
        opened.fault,
        "A temporary index, rebuilt from the files, serves meanwhile; the vault's own index file is left as it is.",
      );
    // Beside a search backend of its own (obsidian's hybrid-search) nothing reads the full-text rows: none are kept.
    const servesSearch = ctx.servesSearch !== false;
    const db = new IndexDb(opened, vaultRoot, faults, servesSearch);
    const layout = {
      kind: options.layout,
      metaDir: options.metaDir,
      defaultType: options.defaultType ?? 'general',
      readHardLinks: options.readHardLinks,
      underscoreNotes: options.underscoreNotes,
    };
    const store = new FsSqliteStore(
      vaultRoot,
      layout,
      db,
      logger,
      faults,
      options.defaultType,
      journalWindow(options.journal),
    );
    // The vault serves at once; the index catches up with the files behind it (decision 013).
    store.refreshInBackground(progress, servesSearch ? () => prepareForSearch(db, logger) : () => undefined);
    return {
      store,
      ...(servesSearch
        ? {
            search: createSearchIndex(
              db,
              logger,
              () => store.whenIndexed(),
              () => store.whenReadable(),
            ),
          }
        : {}),
      ...(readOnly ? { readOnly } : {}),
    };
  },
});
