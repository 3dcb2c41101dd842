/** Seed 001's flat config.yaml read as the notekernel config it means (app/config/seed-config.ts). */
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { parseConfigFile as parseUserConfig } from '../../../app/config/load.js';
import { liftSeedConfig } from '../../../app/config/seed-config.js';
import { SEED_CONFIG_YAML } from '../../e2e/zettelkasten/seed.js';

describe('seed 001 config.yaml', () => {
  it('moves the flat keys under plugins.card-workflow, names the profile, and serves ~/zettelkasten/cards as the vault', () => {
    const file = path.join('/srv', 'zettelkasten-mcp', 'config.yaml');
    const config = parseUserConfig(yaml.load(SEED_CONFIG_YAML), file);
    const cards = path.join(os.homedir(), 'zettelkasten', 'cards');
    expect(config).toEqual({
      profile: 'zettelkasten',
      vault: cards,
      plugins: {
        'card-workflow': {
          templates_directory: './templates',
          output_directory: cards,
          naming_conventions_file: './config/naming-conventions.md',
          template_mapping_file: './config/template-mapping.yaml',
          file_operations: { create_backup: true, filename_sanitization: true },
        },
      },
    });
  });

  it("keeps what the file says in notekernel's own form, and leaves other files alone", () => {
    expect(
      liftSeedConfig(
        { output_directory: 'cards', vault: '/v', plugins: { 'card-workflow': { output_directory: 'mine' } } },
        '/c/config.yaml',
      ),
    ).toEqual({
      profile: 'zettelkasten',
      vault: '/v',
      plugins: { 'card-workflow': { output_directory: 'mine' } },
    });
    expect(liftSeedConfig({ templates_directory: 't' })).toEqual({
      profile: 'zettelkasten',
      plugins: { 'card-workflow': { templates_directory: 't' } },
    });
    const flint = { profile: 'flint', output_directory: 'x' };
    expect(liftSeedConfig(flint, '/c/config.yaml')).toBe(flint);
    expect(() => parseUserConfig(flint, '/c/config.yaml')).toThrow(/output_directory: unknown key/);
    expect(() => parseUserConfig({ output_directory: 'x', templates_dir: 't' }, '/c/config.yaml')).toThrow(
      /templates_dir: unknown key/,
    );
  });
});
