import type { ProfilePreset } from '../catalogue-types.js';

/**
 * notarium (seed 003, MCP Notarium): a Simplenote account through Simperium, a local sql.js cache
 * (FTS4) for listings and search, and the seed's list / get / save / manage tools. The first full
 * sync runs behind the open, so an MCP client's `initialize` is answered at once (the login still
 * happens first: wrong credentials fail at start-up).
 */
export const notariumProfile: ProfilePreset = {
  id: 'notarium',
  description: 'notarium: a Simplenote account (Simperium) with a local sql.js cache; list / get / save / manage.',
  storage: { backend: 'simplenote', options: { firstSync: 'behind-open' } },
  plugins: { 'simplenote-tools': true },
};
