/**
 * vault-config: seed 000's per-vault `.flint-note/config.yml` (default note type, validation
 * flags, deletion settings) behind VAULT_CONFIG, and backups before deletes behind BACKUPS.
 * A bad file stops start-up naming the file and the key; `vault.init` writes the defaults
 * when the file is missing. (The vault resources belong to the vaults plugin.)
 */
import { z } from 'zod';
import { requireMember } from '../../kernel/backend.js';
import { definePlugin, provide } from '../../kernel/plugin.js';
import { normaliseRelative } from '../../toolkit/files/paths.js';
import { createBackups } from './backups.js';
import { defaultConfigText } from '../../toolkit/vault-config.js';
import { createVaultConfig } from './config-file.js';
import { BACKUPS, VAULT_CONFIG } from './service.js';
import { ContentHashMismatchError } from '../../kernel/errors.js';

export { VAULT_CONFIG, type VaultConfigService } from './service.js';
export { BACKUPS, type BackupService, type BackupReport, type BackupEntry } from './service.js';

const options = z.object({
  file: z
    .string()
    .min(1)
    .default('.flint-note/config.yml')
    .describe('Vault-relative path of the per-vault config file'),
});

export const vaultConfigPlugin = definePlugin<z.output<typeof options>>({
  id: 'vault-config',
  description:
    'Per-vault config (.flint-note/config.yml): default type, validation flags, deletion settings; backups before deletes.',
  requires: ['files'],
  config: options,
  async register(ctx) {
    const files = requireMember(ctx.store.files, ctx.vault.storageBackend, 'files', 'vault-config');
    const file = normaliseRelative(ctx.options.file);
    const config = createVaultConfig(files, file, ctx.store.defaultType, ctx.logger);
    await config.get(); // a bad file fails start-up, naming the file and the key
    return {
      services: [provide(VAULT_CONFIG, config), provide(BACKUPS, createBackups(files, config))],
      hooks: {
        async 'vault.init'() {
          if (await files.exists(file)) return;
          const dir = file.split('/').slice(0, -1).join('/');
          if (dir) await files.mkdir(dir);
          try {
            await files.writeText(file, defaultConfigText(ctx.store.defaultType), { expectedHash: '' });
          } catch (err) {
            // Two processes initialising one empty folder at once: the other one wrote it first.
            if (!(err instanceof ContentHashMismatchError) || !(await files.exists(file))) throw err;
          }
        },
      },
    };
  },
});
