/** What every plugin, tool and backend may know about the vault it serves. */
export interface VaultInfo {
  /** Registry id where the vault is registered (flint), else the folder name. */
  id: string;
  /** Absolute, symlink-resolved root. */
  root: string;
  profile: string;
  readOnly: boolean;
  storageBackend: string;
  searchBackend?: string;
}
