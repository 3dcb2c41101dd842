/**
 * A dry run's answer (decision 025): each step of a plan as the agent reads it — what happens to
 * the note, its title before and after, the metadata keys that change, a unified diff of its text.
 */
import type { JournalStep } from './journal.js';
import { unifiedDiff } from './unified-diff.js';

/** One note of a dry run: what would happen to it, and its text's unified diff. */
export interface PlannedNote {
  /** Position in the items given. */
  index: number;
  action: 'create' | 'update' | 'delete' | 'move';
  /** Absent for a create: the store chooses the id when it writes. */
  id?: string;
  /** A move's new id. */
  to?: string;
  title: { before: string | null; after: string | null };
  /** Metadata keys whose values would change. */
  metadata_changed: string[];
  diff: string;
}

export interface PlanPreview {
  dry_run: true;
  operation: string;
  notes: PlannedNote[];
  refused: Array<{ index: number; code: string; error: string }>;
}

export function describeStep(step: JournalStep, index: number): PlannedNote {
  if (step.kind === 'create') {
    const { input } = step;
    return {
      index,
      action: 'create',
      title: { before: null, after: input.title },
      metadata_changed: Object.keys(input.metadata ?? {}).sort(),
      diff: unifiedDiff('', input.content),
    };
  }
  if (step.kind === 'delete') {
    return {
      index,
      action: 'delete',
      id: step.id,
      title: { before: step.before.title, after: null },
      metadata_changed: [],
      diff: unifiedDiff(step.before.content, ''),
    };
  }
  if (step.kind === 'text') {
    const name = step.path.replace(/^.*\//, '').replace(/\.md$/i, '');
    const action = step.before === null ? 'create' : step.text === null ? 'delete' : 'update';
    return {
      index,
      action,
      id: step.path,
      title: { before: step.before === null ? null : name, after: step.text === null ? null : name },
      metadata_changed: [],
      diff: unifiedDiff(step.before?.text ?? '', step.text ?? ''),
    };
  }
  if (step.kind === 'move') {
    return {
      index,
      action: 'move',
      id: step.id,
      to: step.to,
      title: { before: step.before.title, after: step.before.title },
      metadata_changed: step.before.type === step.type ? [] : ['type'],
      diff: '',
    };
  }
  const { before, change } = step;
  const metadata = change.metadata ?? before.metadata;
  const keys = [...new Set([...Object.keys(before.metadata), ...Object.keys(metadata)])].filter(
    (k) => JSON.stringify(before.metadata[k]) !== JSON.stringify(metadata[k]),
  );
  return {
    index,
    action: 'update',
    id: step.id,
    title: { before: before.title, after: change.title ?? before.title },
    metadata_changed: keys.sort(),
    diff: unifiedDiff(before.content, change.content ?? before.content),
  };
}
