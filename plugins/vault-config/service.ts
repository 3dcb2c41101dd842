/**
 * vault-config's public face: the services other plugins resolve, as types and tokens only
 * (decision 041). The config file is read by config-file.ts, backups are taken by backups.ts.
 */
import { token } from '../../kernel/container.js';
import type { VaultConfig } from '../../toolkit/vault-config.js';

/**
 * VAULT_CONFIG: the vault's `.flint-note/config.yml`, checked on every call so an edit applies
 * at once without a restart.
 */
export interface VaultConfigService {
  /** Vault-relative path of the config file. */
  readonly file: string;
  /** The current config, defaults filled; throws `config_invalid` (file and key) when the file is bad. */
  get(): Promise<VaultConfig>;
}

export const VAULT_CONFIG = token<VaultConfigService>('vault-config.service');

export interface BackupEntry {
  /** Vault-relative path of the file being backed up, e.g. `general/my-note.md`. */
  relPath: string;
  /** Its text when the caller already read it (so the copy is exactly what it checked). */
  text?: string;
}

export interface BackupReport {
  /** Absolute path of the backup folder. */
  path: string;
  /** Vault-relative path of the backup folder. */
  relPath: string;
  files: string[];
  timestamp: string;
}

/**
 * BACKUPS: copies of notes taken before a delete, under the config's `backup_path`
 * (`.flint-note/backups` by default), one folder per operation.
 */
export interface BackupService {
  backup(label: string, entries: readonly BackupEntry[], details?: Record<string, unknown>): Promise<BackupReport>;
}

export const BACKUPS = token<BackupService>('vault-config.backups');
