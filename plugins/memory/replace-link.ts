/**
 * Seed 002's `replaceLink(body, oldId, newId)` (US-003, FR-9): every `[[oldId|text]]` and
 * `[[oldId]]` in a body points at `newId` afterwards, display text kept as written. Only the
 * id inside the brackets changes: an embed's `!`, a `#heading`, an escaped table pipe and the
 * short form stay; links inside code are not links and stay too.
 */
import { scanMarkdown } from '../../toolkit/markdown/index.js';

export interface ReplacedLinks {
  body: string;
  /** How many links now point at newId instead of oldId. */
  replaced: number;
}

export function replaceLink(body: string, oldId: string, newId: string): ReplacedLinks {
  if (oldId === newId) return { body, replaced: 0 };
  let out = '';
  let at = 0;
  let replaced = 0;
  for (const link of scanMarkdown(body, { tags: false }).links) {
    if (link.kind === 'markdown' || link.idRef !== oldId) continue;
    // The target is the first thing inside the brackets, so the first occurrence is the id.
    out += body.slice(at, link.start) + link.raw.replace(oldId, newId);
    at = link.end;
    replaced++;
  }
  return { body: out + body.slice(at), replaced };
}
