/**
 * The optional `vault_id` every note tool accepts (seed 000). Routing a call to another
 * registered vault happens before the handler runs; a handler only confirms it is the vault
 * that was asked for.
 */
import { z } from 'zod';
import { NotFoundError } from './errors.js';
import type { ToolContext } from './tool.js';

export const vaultIdField = z
  .string()
  .min(1)
  .optional()
  .describe('Run in this vault (id) instead of the active one');

export function assertVault(ctx: Pick<ToolContext, 'vault'>, vaultId: string | undefined): void {
  if (vaultId === undefined || vaultId === ctx.vault.id) return;
  throw new NotFoundError(`Vault '${vaultId}' not found. Available vaults: ${ctx.vault.id}`, {
    vault_id: vaultId,
    available: [ctx.vault.id],
  });
}
