/** What every obsidian-tools handler reaches: the vault's files and the notes service. */
import type { VaultFiles } from '../../kernel/backend.js';
import { requireMember } from '../../kernel/backend.js';
import type { ToolContext } from '../../kernel/tool.js';

export function filesOf(ctx: Pick<ToolContext, 'notes' | 'vault'>): VaultFiles {
  return requireMember(ctx.notes.store.files, ctx.vault.storageBackend, 'files', 'obsidian-tools');
}

/** Sorted the way a file list reads: by path, case-insensitively, then exactly. */
export function byPath(a: string, b: string): number {
  const folded = a.toLowerCase().localeCompare(b.toLowerCase());
  return folded !== 0 ? folded : a < b ? -1 : a > b ? 1 : 0;
}
