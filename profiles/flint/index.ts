import type { ProfilePreset } from '../catalogue-types.js';

/**
 * flint-note (seed 000): typed markdown notes with frontmatter, indexed in SQLite. No
 * `defaultType` here: the vault's own `default_note_type` applies unless a config file sets one.
 */
export const flintProfile: ProfilePreset = {
  id: 'flint',
  description: 'flint-note: typed notes with schemas, SQLite search, links and safe concurrent edits.',
  storage: { backend: 'fs-sqlite', options: { metaDir: '.flint-note', layout: 'typed' } },
  plugins: {
    vaults: true,
    'note-types': true,
    notes: true,
    'vault-config': true,
    schema: true,
    links: true,
    tags: true,
    search: true,
    journal: true,
  },
};
