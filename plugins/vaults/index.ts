/**
 * vaults: seed 000's multi-vault management over the kernel's registry and router, plus the
 * flint-note://vaults and flint-note://current-vault resources and flint-note's note resource
 * templates, which may name any registered vault (note-resources.ts).
 */
import path from 'node:path';
import { z } from 'zod';
import { definePlugin } from '../../kernel/plugin.js';
import type { ToolContext } from '../../kernel/tool.js';
import { vaultRootPolicy } from './allowed-roots.js';
import { noteResourceTemplates } from './note-resources.js';
import { VAULT_REGISTRY } from './service.js';
import { requireVaultFolder } from '../../toolkit/vault-folder.js';
import {
  createVaultTool,
  getCurrentVaultTool,
  listVaultsTool,
  removeVaultTool,
  switchVaultTool,
  updateVaultTool,
} from './tools/vault-tools.js';

export const vaultsOptions = z
  .object({
    allowed_roots: z
      .array(z.string().min(1))
      .default([])
      .describe(
        'folders below which an agent may create or switch to vaults over MCP, besides the folder holding the served vault (relative to the config file)',
      ),
  })
  .strict();

export type VaultsOptions = z.infer<typeof vaultsOptions>;

export const vaultsPlugin = definePlugin<VaultsOptions>({
  id: 'vaults',
  description: 'Several vaults in one registry: list, create, switch, update, remove; vault_id on every note tool.',
  config: vaultsOptions as z.ZodType<VaultsOptions>,
  register(ctx) {
    const registry = ctx.resolve(VAULT_REGISTRY);
    const folder = requireVaultFolder(ctx.vault, 'vaults');
    const configured = ctx.options.allowed_roots.map((r) => path.resolve(ctx.configDir ?? folder, r));
    const policyOf = (call: ToolContext) => vaultRootPolicy(requireVaultFolder(call.vault, 'vaults'), configured);
    return {
      tools: [
        listVaultsTool,
        createVaultTool(policyOf),
        switchVaultTool(policyOf),
        getCurrentVaultTool,
        updateVaultTool,
        removeVaultTool,
      ],
      resources: [
        {
          uri: 'flint-note://vaults',
          name: 'vaults',
          description: 'All configured vaults (JSON list; is_current marks the current one)',
          // Seed 000: "JSON list of vault configurations".
          read: async () => {
            const current = await registry.currentId();
            return (await registry.list()).map((v) => ({ ...v, is_current: v.id === current }));
          },
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
        ...noteResourceTemplates(ctx),
      ],
    };
  },
});
