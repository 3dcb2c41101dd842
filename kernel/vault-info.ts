/** What every plugin, tool and backend may know about the vault it serves. */
export interface VaultInfo {
  /** Registry id where the vault is registered (flint), else the folder name. */
  id: string;
  /** The vault's folder (absolute, symlinks resolved), when its storage backend keeps one (`BackendDefinition.folder`). */
  root?: string;
  profile: string;
  readOnly: boolean;
  /** Why, when the vault is read-only though no option asked for it (its folder cannot be written). */
  readOnlyReason?: string;
  storageBackend: string;
  searchBackend?: string;
}
