/**
 * BACKUPS: copies of notes taken before a delete, under the config's `backup_path`
 * (`.flint-note/backups` by default). Each operation gets its own folder,
 * `<time>_<label>_<random>/`, holding the files at their vault-relative paths plus a
 * `_manifest.json`, so a restore is a plain copy back and two deletes never share a folder.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { token } from '../../kernel/container.js';
import type { VaultFiles } from '../../kernel/backend.js';
import type { VaultConfigService } from './service.js';

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

export interface BackupService {
  backup(label: string, entries: readonly BackupEntry[], details?: Record<string, unknown>): Promise<BackupReport>;
}

export const BACKUPS = token<BackupService>('vault-config.backups');

export function createBackups(files: VaultFiles, config: VaultConfigService): BackupService {
  return {
    async backup(label, entries, details = {}) {
      const { deletion } = await config.get();
      const timestamp = new Date().toISOString();
      const safeLabel = label.replace(/[^\p{L}\p{N}_-]+/gu, '-').slice(0, 80) || 'backup';
      const folder = path.posix.join(deletion.backup_path, `${timestamp.replace(/[:.]/g, '-')}_${safeLabel}_${randomBytes(3).toString('hex')}`);
      const copied: string[] = [];
      for (const entry of entries) {
        const text = entry.text ?? (await files.readText(entry.relPath));
        if (text === undefined) continue; // gone meanwhile: nothing to keep
        const target = path.posix.join(folder, entry.relPath);
        await files.mkdir(path.posix.dirname(target));
        await files.writeText(target, text);
        copied.push(entry.relPath);
      }
      await files.mkdir(folder);
      await files.writeText(path.posix.join(folder, '_manifest.json'), `${JSON.stringify({ label, timestamp, files: copied, ...details }, null, 2)}\n`);
      return { path: files.resolve(folder), relPath: folder, files: copied, timestamp };
    },
  };
}
