/**
 * Keys the vault owns (title, type, filename, created, updated) cannot be changed through
 * metadata. Sending one back unchanged is allowed: agents often return the whole metadata
 * object they read, and refusing that would make every such update fail.
 */
import type { NoteDraft } from '../../kernel/hooks.js';
import type { Metadata, MetadataValue, Note } from '../../kernel/note.js';
import { isSystemKey, type SystemKey } from '../../toolkit/metadata-fields.js';
import type { FieldIssue } from './validate.js';

const HOW: Record<SystemKey, string> = {
  title: 'use rename_note to change a title',
  type: 'use move_note to change a note\'s type',
  filename: 'the filename is fixed when the note is created',
  created: 'it is set by the vault when the note is created',
  updated: 'it is set by the vault on every write',
};

export async function protectedIssues(draft: NoteDraft, defaultType: string, previous: () => Promise<Note | undefined>): Promise<FieldIssue[]> {
  const touched = draft.changedKeys.filter(isSystemKey);
  if (touched.length === 0) return [];
  const current: Partial<Record<SystemKey, MetadataValue>> = {};
  if (draft.op === 'create') {
    current.title = draft.title;
    current.type = draft.type ?? defaultType;
  } else {
    const note = await previous();
    if (note) Object.assign(current, pickSystem(note.metadata), { title: note.title, ...(note.type !== undefined ? { type: note.type } : {}) });
  }
  const issues: FieldIssue[] = [];
  for (const key of touched) {
    const value = draft.metadata[key];
    if (value !== undefined && sameValue(value, current[key])) continue;
    issues.push({
      field: key,
      rule: 'protected',
      value: value ?? null,
      message: `Field '${key}' is managed by the vault and cannot be set through metadata: ${HOW[key]}`,
    });
  }
  return issues;
}

function pickSystem(metadata: Metadata): Partial<Record<SystemKey, MetadataValue>> {
  const out: Partial<Record<SystemKey, MetadataValue>> = {};
  for (const [key, value] of Object.entries(metadata)) if (isSystemKey(key)) out[key] = value;
  return out;
}

function sameValue(a: MetadataValue, b: MetadataValue | undefined): boolean {
  return b !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
