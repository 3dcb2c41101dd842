import type { ProfilePreset } from '../catalogue-types.js';

/**
 * obsidian (seed 004): an Obsidian vault as it is — every `.md` in every folder (flat layout,
 * the note's vault path is its id), tool folders (`.obsidian/`, `.git/`, any hidden folder)
 * never read — searched by keyword and by meaning (hybrid-search, the offline USE-lite model),
 * with seed 004's vault tools and the agent's preferences. Decision 022.
 */
export const obsidianProfile: ProfilePreset = {
  id: 'obsidian',
  description:
    'Obsidian vault: hybrid semantic + keyword search with an offline model, vault tools (frontmatter, moves that keep [[links]], daily-note log), agent preferences.',
  storage: {
    backend: 'fs-sqlite',
    options: { metaDir: '.notekernel', layout: 'flat', defaultType: 'notes', underscoreNotes: true },
  },
  search: { backend: 'hybrid-search' },
  // links: the link index behind find_backlinks and the rewrites of move_file; its flint tools
  // are not part of this surface. tags: list_tags over frontmatter and #inline tags.
  // journal: list_operations / undo_operation over move_file, batch_move_files and batch_update_frontmatter.
  plugins: { links: { tools: false }, tags: true, 'obsidian-tools': true, 'agent-preferences': true, journal: true },
  // rename_tag writes through the store's frontmatter serialiser (flint's key order and an
  // `updated` stamp), which an Obsidian vault's files should not get; list_tags stays.
  tools: { hide: ['rename_tag'] },
};
