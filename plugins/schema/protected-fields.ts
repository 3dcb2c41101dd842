/**
 * Keys the vault owns (title, type, filename, created, updated) cannot be changed through
 * metadata, except `created` on create: an imported note keeps its creation date. Sending one
 * back unchanged is allowed: agents often return the whole metadata object they read, and
 * refusing that would make every such update fail.
 */
import type { NoteDraft } from '../../kernel/hooks.js';
import type { Metadata, MetadataValue, Note } from '../../kernel/note.js';
import { isSystemKey, type SystemKey } from '../../toolkit/metadata-fields.js';
import type { FieldIssue } from './validate.js';

const HOW: Record<SystemKey, string> = {
  title: 'use rename_note to change a title',
  type: "use move_note to change a note's type",
  filename: 'the filename is fixed when the note is created',
  created: 'it is set by the vault when the note is created',
  updated: 'it is set by the vault on every write',
};

export async function protectedIssues(
  draft: NoteDraft,
  defaultType: string,
  previous: () => Promise<Note | undefined>,
): Promise<FieldIssue[]> {
  const touched = draft.changedKeys.filter(isSystemKey);
  if (touched.length === 0) return [];
  const current: Partial<Record<SystemKey, MetadataValue>> = {};
  if (draft.op === 'create') {
    current.title = draft.title;
    current.type = draft.type ?? defaultType;
  } else {
    const note = await previous();
    if (note)
      Object.assign(current, pickSystem(note.metadata), {
        title: note.title,
        ...(note.type !== undefined ? { type: note.type } : {}),
      });
  }
  const issues: FieldIssue[] = [];
  for (const key of touched) {
    const value = draft.metadata[key];
    if (value !== undefined && sameValue(value, current[key])) continue;
    // A note brought in from elsewhere keeps its creation date (seed 000's imports): a date is taken on create.
    if (key === 'created' && draft.op === 'create') {
      if (isInstant(value)) continue;
      issues.push({
        field: key,
        rule: 'date',
        value: value ?? null,
        message: `Field 'created' must be an ISO date or date-time (e.g. 2024-01-15T10:30:00Z) when a note is created`,
      });
      continue;
    }
    issues.push({
      field: key,
      rule: 'protected',
      value: value ?? null,
      message: `Field '${key}' is managed by the vault and cannot be set through metadata: ${HOW[key]}`,
    });
  }
  return issues;
}

function isInstant(value: MetadataValue | undefined): boolean {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) && !Number.isNaN(Date.parse(value));
}

function pickSystem(metadata: Metadata): Partial<Record<SystemKey, MetadataValue>> {
  const out: Partial<Record<SystemKey, MetadataValue>> = {};
  for (const [key, value] of Object.entries(metadata)) if (isSystemKey(key)) out[key] = value;
  return out;
}

function sameValue(a: MetadataValue, b: MetadataValue | undefined): boolean {
  return b !== undefined && JSON.stringify(a) === JSON.stringify(b);
}
