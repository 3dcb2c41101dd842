/**
 * Seed 002's response shapes. An entry read is `{ id, title, tags, links, body, createdAt,
 * updatedAt, status, path }`; a listed entry drops body and links. Status and org come from
 * where the file sits (seed 002: status is the folder), by the backend's own layout rule.
 * A link is seed 002's `extractLinks` item, `{ id, displayText, position: { start, end } }`
 * (UTF-16 offsets into `body`); times come in both forms (options.ts).
 */
import { z } from 'zod';
import type { Metadata, Note, NoteSummary } from '../../kernel/note.js';
import { locationOf } from '../../toolkit/note-location.js';
import { scanMarkdown } from '../../toolkit/markdown/index.js';
import type { TimestampForm } from './options.js';

export interface OutboundLink {
  id: string;
  displayText: string;
  /** Where the whole `[[…]]` sits in the body: `body.slice(start, end)` is the link as written. */
  position: { start: number; end: number };
}

/** `createdAt` / `updatedAt` in the vault's form, the other form beside them. */
export type EntryTimes =
  | { createdAt: string; updatedAt: string; createdAtMs: number; updatedAtMs: number }
  | { createdAt: number; updatedAt: number; createdAtIso: string; updatedAtIso: string };

export type EntryView = EntryTimes & {
  id: string;
  title: string;
  tags: string[];
  links: OutboundLink[];
  body: string;
  status: 'active' | 'archived';
  path: string;
  /** What memory_update needs back: the entry as read (not a seed 002 field; added for safe writes). */
  contentHash: string;
};

export type EntryListItem = EntryTimes & {
  id: string;
  title: string;
  tags: string[];
  status: 'active' | 'archived';
  org?: string;
  path: string;
};

export function entryTimes(created: string, updated: string, form: TimestampForm = 'iso'): EntryTimes {
  const [c, u] = [Date.parse(created), Date.parse(updated)];
  return form === 'epoch'
    ? { createdAt: c, updatedAt: u, createdAtIso: created, updatedAtIso: updated }
    : { createdAt: created, updatedAt: updated, createdAtMs: c, updatedAtMs: u };
}

/** An entry's update time as ISO-8601, whichever form its view carries. */
export function updatedIso(times: EntryTimes): string {
  return 'updatedAtIso' in times ? times.updatedAtIso : times.updatedAt;
}

export function entryView(note: Note, form: TimestampForm = 'iso'): EntryView {
  return {
    id: note.id,
    title: note.title,
    tags: note.tags,
    links: outboundLinks(note.content),
    body: note.content,
    ...entryTimes(note.created, note.updated, form),
    status: statusOf(note.metadata),
    path: locationOf(note).path,
    contentHash: note.contentHash,
  };
}

export function listItem(summary: NoteSummary, form: TimestampForm = 'iso'): EntryListItem {
  const org = summary.metadata.org;
  return {
    id: summary.id,
    title: summary.title,
    tags: summary.tags,
    ...entryTimes(summary.created, summary.updated, form),
    status: statusOf(summary.metadata),
    ...(typeof org === 'string' ? { org } : {}),
    path: locationOf(summary).path,
  };
}

/** `[[id__X|text]]` and `[[id__X]]` (display text defaults to the id), outside code, in order. */
export function outboundLinks(text: string): OutboundLink[] {
  return scanMarkdown(text, { tags: false })
    .links.filter((l) => l.idRef !== null && l.kind !== 'markdown')
    .map((l) => ({
      id: l.idRef as string,
      displayText: l.alias ?? (l.idRef as string),
      position: { start: l.start, end: l.end },
    }));
}

/** The store reports where an entry sits as metadata (`status`, and `org` for an organisation's entry). */
function statusOf(metadata: Metadata): 'active' | 'archived' {
  return metadata.status === 'archived' ? 'archived' : 'active';
}

const time = z.union([z.string(), z.number()]);
const timesOutput = {
  createdAt: time,
  updatedAt: time,
  createdAtMs: z.number().optional(),
  updatedAtMs: z.number().optional(),
  createdAtIso: z.string().optional(),
  updatedAtIso: z.string().optional(),
};

export const outboundLinkOutput = z.object({
  id: z.string(),
  displayText: z.string(),
  position: z.object({ start: z.number(), end: z.number() }),
});

/** EntryListItem as an output schema. */
export const entryListItemOutput = {
  id: z.string(),
  title: z.string(),
  tags: z.array(z.string()),
  ...timesOutput,
  status: z.string(),
  org: z.string().optional(),
  path: z.string(),
};

/** EntryView as an output schema. */
export const entryViewOutput = z.object({
  id: z.string(),
  title: z.string(),
  tags: z.array(z.string()),
  links: z.array(outboundLinkOutput),
  body: z.string(),
  ...timesOutput,
  status: z.string(),
  path: z.string(),
  contentHash: z.string(),
});
