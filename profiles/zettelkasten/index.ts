import type { ProfilePreset } from '../catalogue-types.js';

/** Zettelkasten MCP server (seed 001): the two-stage card workflow on a plain markdown folder. */
export const zettelkastenProfile: ProfilePreset = {
  id: 'zettelkasten',
  description:
    'Zettelkasten: a stateless two-stage draft → card workflow with templates, naming conventions and a safe save_card.',
  storage: { backend: 'fs-sqlite', options: { layout: 'flat', metaDir: '.notekernel' } },
  // tags and links join here once those plugins exist.
  plugins: { 'card-workflow': true },
};
