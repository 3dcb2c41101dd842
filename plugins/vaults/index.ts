/**
 * vaults: seed 000's multi-vault management over the kernel's registry and router, plus the
 * flint-note://vaults and flint-note://current-vault resources.
 */
import { definePlugin } from '../../kernel/plugin.js';
import { VAULT_REGISTRY } from '../../kernel/tokens.js';
import {
  createVaultTool,
  getCurrentVaultTool,
  listVaultsTool,
  removeVaultTool,
  switchVaultTool,
  updateVaultTool,
} from './tools/vault-tools.js';

export const vaultsPlugin = definePlugin<Record<string, never>>({
  id: 'vaults',
  description: 'Several vaults in one registry: list, create, switch, update, remove; vault_id on every note tool.',
  register(ctx) {
    const registry = ctx.resolve(VAULT_REGISTRY);
    return {
      tools: [listVaultsTool, createVaultTool, switchVaultTool, getCurrentVaultTool, updateVaultTool, removeVaultTool],
      resources: [
        {
          uri: 'flint-note://vaults',
          name: 'vaults',
          description: 'All configured vaults',
          read: async () => ({ vaults: await registry.list(), current_vault: (await registry.currentId()) ?? null }),
        },
        {
          uri: 'flint-note://current-vault',
          name: 'current-vault',
          description: 'The vault being served, with counts',
          read: async () => ({
            ...((await registry.get(ctx.vault.id)) ?? { id: ctx.vault.id, name: ctx.vault.id }),
            path: ctx.vault.root,
            note_count: await ctx.store.count(),
          }),
        },
      ],
    };
  },
});
