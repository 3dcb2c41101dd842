/**
 * The BACKUPS service: copies of notes taken before a delete, under the config's `backup_path`
 * (`.flint-note/backups` by default). Each operation gets its own folder,
 * `<time>_<label>_<random>/`, holding the files at their vault-relative paths plus a
 * `_manifest.json`, so a restore is a plain copy back and two deletes never share a folder.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import type { VaultFiles } from '../../kernel/backend.js';
import type { BackupService, VaultConfigService } from './service.js';

export function createBackups(files: VaultFiles, config: VaultConfigService): BackupService {
  return {
    async backup(label, entries, details = {}) {
      const { deletion } = await config.get();
      const timestamp = new Date().toISOString();
      const safeLabel = label.replace(/[^\p{L}\p{N}_-]+/gu, '-').slice(0, 80) || 'backup';
      const folder = path.posix.join(
        deletion.backup_path,
        `${timestamp.replace(/[:.]/g, '-')}_${safeLabel}_${randomBytes(3).toString('hex')}`,
      );
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
      await files.writeText(
        path.posix.join(folder, '_manifest.json'),
        `${JSON.stringify({ label, timestamp, files: copied, ...details }, null, 2)}\n`,
      );
      return { path: files.resolve(folder), relPath: folder, files: copied, timestamp };
    },
  };
}
