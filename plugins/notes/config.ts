/** The vault's config as the notes tools see it: the config plugin's, or seed 000's defaults when it is not loaded. */
import type { ToolContext } from '../../kernel/tool.js';
import { DEFAULT_VAULT_CONFIG, type VaultConfig } from '../../toolkit/vault-config.js';
import { VAULT_CONFIG } from '../vault-config/service.js';

export async function vaultConfig(ctx: Pick<ToolContext, 'tryResolve'>): Promise<VaultConfig> {
  return (await ctx.tryResolve(VAULT_CONFIG)?.get()) ?? DEFAULT_VAULT_CONFIG;
}
