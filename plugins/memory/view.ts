/**
 * Seed 002's response shapes. An entry read is `{ id, title, tags, links, body, createdAt,
 * updatedAt, status, path }`; a listed entry drops body and links. Status and org come from
 * where the file sits (seed 002: status is the folder), by the backend's own layout rule.
 */
import { z } from 'zod';
import { locationOf, type Metadata, type Note, type NoteSummary } from '../../kernel/note.js';
import { scanMarkdown } from '../../toolkit/markdown/index.js';

export interface OutboundLink {
  id: string;
  displayText: string;
}

export interface EntryView {
  id: string;
  title: string;
  tags: string[];
  links: OutboundLink[];
  body: string;
  createdAt: string;
  updatedAt: string;
  status: 'active' | 'archived';
  path: string;
  /** What memory_update needs back: the entry as read (not a seed 002 field; added for safe writes). */
  contentHash: string;
}

export interface EntryListItem {
  id: string;
  title: string;
  tags: string[];
  createdAt: string;
  updatedAt: string;
  status: 'active' | 'archived';
  org?: string;
  path: string;
}

export function entryView(note: Note): EntryView {
  return {
    id: note.id,
    title: note.title,
    tags: note.tags,
    links: outboundLinks(note.content),
    body: note.content,
    createdAt: note.created,
    updatedAt: note.updated,
    status: statusOf(note.metadata),
    path: locationOf(note).path,
    contentHash: note.contentHash,
  };
}

export function listItem(summary: NoteSummary): EntryListItem {
  const org = summary.metadata.org;
  return {
    id: summary.id,
    title: summary.title,
    tags: summary.tags,
    createdAt: summary.created,
    updatedAt: summary.updated,
    status: statusOf(summary.metadata),
    ...(typeof org === 'string' ? { org } : {}),
    path: locationOf(summary).path,
  };
}

/** `[[id__X|text]]` and `[[id__X]]` (display text defaults to the id), outside code, in order. */
export function outboundLinks(text: string): OutboundLink[] {
  return scanMarkdown(text, { tags: false })
    .links.filter((l) => l.idRef !== null && l.kind !== 'markdown')
    .map((l) => ({ id: l.idRef as string, displayText: l.alias ?? (l.idRef as string) }));
}

/** The store reports where an entry sits as metadata (`status`, and `org` for an organisation's entry). */
function statusOf(metadata: Metadata): 'active' | 'archived' {
  return metadata.status === 'archived' ? 'archived' : 'active';
}

/** EntryListItem as an output schema. */
export const entryListItemOutput = {
  id: z.string(),
  title: z.string(),
  tags: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
  status: z.string(),
  org: z.string().optional(),
  path: z.string(),
};

/** EntryView as an output schema. */
export const entryViewOutput = z.object({
  id: z.string(),
  title: z.string(),
  tags: z.array(z.string()),
  links: z.array(z.object({ id: z.string(), displayText: z.string() })),
  body: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  status: z.string(),
  path: z.string(),
  contentHash: z.string(),
});
