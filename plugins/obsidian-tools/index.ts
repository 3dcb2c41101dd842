/**
 * obsidian-tools (seed 004): the tools of the seed's MCP server over an Obsidian vault as it is —
 * notes named by their vault path, linked by `[[note name]]`, frontmatter edited without touching
 * the body or the keys left alone, moves that rewrite the links to a renamed note, and a log of
 * each interaction in the daily note. Files are written as exact text through the store's own
 * contained, atomic, compare-and-swap file access and announced to the kernel at once (so links,
 * tags and the search index keep up); decision 022.
 */
import { z } from 'zod';
import { definePlugin } from '../../kernel/plugin.js';
import { batchMoveFiles, moveFile } from './tools/move-file.js';
import { batchUpdateFrontmatter, listFilesByFrontmatter, updateFrontmatter } from './tools/frontmatter.js';
import { createFile } from './tools/create-file.js';
import { findBacklinks } from './tools/find-backlinks.js';
import { findOutlinks, readFile } from './tools/read-file.js';
import { logInteraction } from './tools/log-interaction.js';
import { searchByDateRange, searchByFolder } from './tools/date-folder.js';
import { DEFAULT_WAIT_FOR_VECTORS_SECONDS, searchVault } from './tools/search-vault.js';

export const obsidianToolsOptions = z
  .object({
    waitForVectorsSeconds: z
      .number()
      .min(0.1)
      .max(3_600)
      .default(DEFAULT_WAIT_FOR_VECTORS_SECONDS)
      .describe(
        "the longest search_vault's wait_for_vectors waits before answering from the vectors ready (clients time out at 60 s)",
      ),
  })
  .strict();

export type ObsidianToolsOptions = z.infer<typeof obsidianToolsOptions>;

export const obsidianToolsPlugin = definePlugin<ObsidianToolsOptions>({
  id: 'obsidian-tools',
  description:
    'Obsidian vault tools (seed 004): hybrid search, read, frontmatter queries and edits, moves that keep links, create, backlinks/outlinks, date and folder listings, the daily-note log.',
  dependsOn: ['links'],
  requires: ['files', 'free-metadata'],
  config: obsidianToolsOptions as z.ZodType<ObsidianToolsOptions>,
  register(ctx) {
    const options = obsidianToolsOptions.parse(ctx.options ?? {});
    return {
      tools: [
        searchVault(options.waitForVectorsSeconds),
        readFile,
        listFilesByFrontmatter,
        updateFrontmatter,
        batchUpdateFrontmatter,
        moveFile,
        batchMoveFiles,
        createFile,
        findBacklinks,
        findOutlinks,
        searchByDateRange,
        searchByFolder,
        logInteraction,
      ],
    };
  },
});
