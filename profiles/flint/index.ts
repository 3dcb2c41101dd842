import type { ProfilePreset } from '../../kernel/config/schema.js';

/** flint-note (seed 000): typed markdown notes with frontmatter, indexed in SQLite. */
export const flintProfile: ProfilePreset = {
  id: 'flint',
  description: 'flint-note: typed notes with schemas, SQLite search, links and safe concurrent edits.',
  storage: { backend: 'fs-sqlite', options: { metaDir: '.flint-note', layout: 'typed', defaultType: 'general' } },
  plugins: { vaults: true, 'note-types': true, notes: true, 'vault-config': true, schema: true, links: true, tags: true, search: true, journal: true },
};
