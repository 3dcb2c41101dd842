/**
 * Seed 002's defrag prompt after US-008: no `used`, `last_used` or `pinned` (those fields are
 * gone), no usage stats line; the hot tier is chosen by content relevance and tags. The answer
 * it asks for keeps the seed's `DefragDecision` shape: `{ hotTier, warmTier, actions }`.
 */
import type { NoteService } from '../../kernel/notes.js';
import type { PromptDefinition } from '../../kernel/plugin.js';
import { listItem, updatedIso } from './view.js';

/** What the prompt shows of an entry (seed 002's `EntryForDefrag` without the usage fields); times ISO-8601. */
export interface EntryForDefrag {
  id: string;
  title: string;
  tags: string[];
  updatedAt: string;
  path: string;
}

export function buildDefragPrompt(entries: readonly EntryForDefrag[], focus?: string): string {
  const lines = entries.map(
    (e) =>
      `- ${e.id} | ${e.title} | ${e.tags.map((t) => `#${t}`).join(' ') || '(no tags)'} | updated ${e.updatedAt.slice(0, 10)} | ${e.path}`,
  );
  return [
    "You are reorganising an agent's memory: plain markdown entries, one idea each, linked by [[id__XXXXXX|text]].",
    `There are ${entries.length} active entries:`,
    ...lines,
    '',
    'Decide:',
    "- hotTier: the ids of entries worth keeping in the agent's working context — chosen by how relevant their content is to the ongoing work and by their tags (area__, topic__ and people tags that recur), not by how often they were read.",
    '- warmTier: the ids of entries to keep but read only on demand.',
    '- actions: merges of entries that say the same thing (keep the older id; memory_replace_link moves every link from the other to it), splits of entries that hold several ideas, archives of entries that no longer apply, and tags to add so related entries meet.',
    ...(focus ? [`Focus: ${focus}`] : []),
    '',
    'Answer with JSON only: {"hotTier": ["id__…"], "warmTier": ["id__…"], "actions": [{"type": "merge" | "split" | "archive" | "tag", "ids": ["id__…"], "reason": "…"}]}.',
    'Carry the actions out with memory_update, memory_rename, memory_replace_link, memory_archive and memory_capture.',
  ].join('\n');
}

export function defragPrompt(notes: NoteService): PromptDefinition {
  return {
    name: 'memory_defrag',
    description:
      'Reorganise the memory: pick the hot and warm tiers by relevance and tags, and propose merges, splits, archives and tags.',
    arguments: [
      {
        name: 'focus',
        description: 'optional: what the agent is working on now (sharpens the hot tier)',
        required: false,
      },
    ],
    async get(args) {
      const entries = (await notes.list())
        .map((n) => listItem(n))
        .filter((e) => e.status === 'active')
        .map((e) => ({ id: e.id, title: e.title, tags: e.tags, updatedAt: updatedIso(e), path: e.path }));
      return [{ role: 'user', text: buildDefragPrompt(entries, args.focus?.trim() || undefined) }];
    },
  };
}
