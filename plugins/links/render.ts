import { z } from 'zod';
/** Rows in seed 000's response shapes (NoteLinkRow, ExternalLinkRow) and the service's LinkRef. */
import type { LinkRef } from './service.js';
import type { ExternalRecord, LinkRecord, NoteLinkRow } from './store/types.js';

export type { NoteLinkRow } from './store/types.js';

export interface ExternalLinkRow {
  id: number;
  note_id: string;
  url: string;
  title: string | null;
  line_number: number;
  link_type: string;
  created: string;
}

export function toNoteLinkRow(r: LinkRecord): NoteLinkRow {
  return {
    id: r.id,
    source_note_id: r.source_note_id,
    target_note_id: r.target_note_id,
    target_title: r.target_title,
    link_text: r.link_text,
    line_number: r.line_number,
    created: r.created,
  };
}

export function toExternalLinkRow(r: ExternalRecord): ExternalLinkRow {
  return {
    id: r.id,
    note_id: r.note_id,
    url: r.url,
    title: r.title,
    line_number: r.line_number,
    link_type: r.link_type,
    created: r.created,
  };
}

export function toLinkRef(r: LinkRecord): LinkRef {
  return {
    source_note_id: r.source_note_id,
    target_note_id: r.target_note_id,
    target_title: r.target_title,
    link_text: r.link_text,
    line_number: r.line_number,
  };
}

/** toNoteLinkRow's fields as an output schema. */
export const noteLinkRowOutput = z.object({
  id: z.number(),
  source_note_id: z.string(),
  target_note_id: z.string().nullable(),
  target_title: z.string(),
  link_text: z.string().nullable(),
  line_number: z.number(),
  created: z.string(),
});
