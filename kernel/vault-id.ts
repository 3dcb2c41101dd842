/** A router sends a call to the vault its `vault_id` names (seed 000); the vault confirms it is that one, for every tool. */
import { NotFoundError } from './errors.js';
import { checkVaultIdLength } from './name-limits.js';

export function assertVault(ownId: string, args: unknown): void {
  const vaultId = (args as { vault_id?: unknown } | null | undefined)?.vault_id;
  if (typeof vaultId !== 'string' || vaultId === ownId) return;
  checkVaultIdLength(vaultId);
  throw new NotFoundError(`Vault '${vaultId}' not found. Available vaults: ${ownId}`, {
    vault_id: vaultId,
    available: [ownId],
  });
}
