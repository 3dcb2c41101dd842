import type { ProfilePreset } from '../catalogue-types.js';

/**
 * agent-memory (seed 002): pure markdown memory entries (`slug id__XXXXXX.md`) with git-derived
 * timestamps, id__ links, inline tags, the memory_* tools and the v1 → v2 migration.
 */
export const agentMemoryProfile: ProfilePreset = {
  id: 'agent-memory',
  description:
    'agent-memory: pure markdown memories linked by [[id__XXXXXX|text]], timestamps from git, the v1 → v2 migration.',
  storage: { backend: 'markdown-git', options: { metaDir: '.notekernel', autoCommit: false } },
  // memory_search: questions and the query syntax over a keyword index beside the entries (no model).
  search: { backend: 'keyword-search' },
  // links: its index answers memory_links / orphans / broken links and rewrites inbound display
  // text on memory_rename; flint's link tools are not part of this surface. tags: list_tags.
  plugins: { links: { tools: false }, tags: true, memory: true, migration: true, journal: true },
};
