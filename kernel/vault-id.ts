/**
 * The optional `vault_id` every note tool accepts (seed 000). A router sends a call to the vault
 * it names; the vault then confirms, once for every tool (`Vault.call`), that it is the one asked
 * for. Handlers never look at it.
 *
 * It carries no description: the same line on every tool was the largest repeat in tools/list
 * (decision 017), and what it would say — a call without it goes to the current vault — is said
 * once, by the vault tools (list_vaults, switch_vault).
 */
import { NotFoundError } from './errors.js';
import { checkVaultIdLength, nameString } from './name-limits.js';

export const vaultIdField = nameString().min(1).optional();

export function assertVault(ownId: string, args: unknown): void {
  const vaultId = (args as { vault_id?: unknown } | null | undefined)?.vault_id;
  if (typeof vaultId !== 'string' || vaultId === ownId) return;
  checkVaultIdLength(vaultId);
  throw new NotFoundError(`Vault '${vaultId}' not found. Available vaults: ${ownId}`, {
    vault_id: vaultId,
    available: [ownId],
  });
}
