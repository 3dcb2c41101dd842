/**
 * Seed 002's v1 entry: a `<!-- agent-memory:meta {json} -->` header holding id, title, tags,
 * status, createdAt, updatedAt and the usage fields (used, last_used, pinned), then the body;
 * files could carry a `_top-of-mind` filename prefix. Converting one gives v2's pure markdown.
 */
import { isTagName } from '../../../../toolkit/markdown/index.js';
import { renderEntry } from '../../../../toolkit/agent-memory/entry-format.js';
import { entryFilename, idFromFilename, isEntryId } from '../../../../toolkit/agent-memory/entry-name.js';

const HEADER = /^\uFEFF?\s*<!--\s*agent-memory:meta\b([\s\S]*?)-->[ \t]*\r?\n?/;
const TOP_OF_MIND = /^_top-of-mind[\s_-]*/;
/** Fields v2 derives (id, title, tags, status, times) or dropped (usage tracking). */
const KNOWN = new Set(['id', 'title', 'tags', 'status', 'createdAt', 'updatedAt', 'used', 'last_used', 'pinned']);

export type V1Outcome =
  | { kind: 'v2'; filename: string; text: string; warnings: string[]; updatedAt?: Date }
  | { kind: 'already-v2'; reason: string }
  | { kind: 'error'; reason: string };

export function hasTopOfMindPrefix(filename: string): boolean {
  return TOP_OF_MIND.test(filename);
}

/** The v2 filename and text for one file, given its name and text. */
export function convertV1(filename: string, text: string, inArchive: boolean): V1Outcome {
  const header = HEADER.exec(text);
  if (!header) {
    if (!hasTopOfMindPrefix(filename))
      return { kind: 'already-v2', reason: 'no agent-memory:meta header and no _top-of-mind prefix' };
    return { kind: 'v2', filename: filename.replace(TOP_OF_MIND, ''), text, warnings: [] };
  }
  let meta: unknown;
  try {
    meta = JSON.parse((header[1] as string).trim());
  } catch (err) {
    return {
      kind: 'error',
      reason: `the agent-memory:meta header is not valid JSON (${(err as Error).message}); the file was left as it is`,
    };
  }
  if (typeof meta !== 'object' || meta === null || Array.isArray(meta))
    return { kind: 'error', reason: 'the agent-memory:meta header is not a JSON object' };
  const m = meta as Record<string, unknown>;
  const warnings: string[] = [];
  const fileId = idFromFilename(filename.replace(TOP_OF_MIND, ''));
  const metaId =
    typeof m.id === 'string'
      ? isEntryId(m.id)
        ? m.id
        : isEntryId(`id__${m.id}`)
          ? `id__${m.id}`
          : undefined
      : undefined;
  const id = fileId ?? metaId;
  if (!id) return { kind: 'error', reason: 'no id: neither the filename nor the header holds an id__XXXXXX' };
  if (fileId && metaId && fileId !== metaId)
    warnings.push(`the header said ${metaId}; the filename's ${fileId} is kept (links use it)`);
  let body = text.slice(header[0].length).replace(/^(\r?\n)+/, '');
  const title =
    typeof m.title === 'string' && m.title.trim() !== '' ? m.title.trim().replace(/[\r\n]+/g, ' ') : undefined;
  const heading = /^# ([^\r\n]+)(\r?\n)*/.exec(body);
  const resolvedTitle = title ?? heading?.[1]?.trim();
  if (!resolvedTitle) return { kind: 'error', reason: 'no title in the header and no "# heading" in the body' };
  // A body that already opens with the same heading must not get it twice.
  if (heading && heading[1]?.trim() === resolvedTitle) body = body.slice(heading[0].length);
  const tags = convertTags(m.tags, warnings);
  for (const key of Object.keys(m))
    if (!KNOWN.has(key)) warnings.push(`dropped v1 field "${key}": ${JSON.stringify(m[key])}`);
  if (m.status === 'archived' && !inArchive)
    warnings.push(
      'the header said archived but the file is not under archive/: kept where it is (v2 status is the folder)',
    );
  if (m.status === 'active' && inArchive)
    warnings.push('the header said active but the file is under archive/: kept archived (v2 status is the folder)');
  const updated =
    typeof m.updatedAt === 'string' || typeof m.updatedAt === 'number' ? new Date(m.updatedAt) : undefined;
  return {
    kind: 'v2',
    filename: entryFilename(resolvedTitle, id),
    text: renderEntry(resolvedTitle, tags, body),
    warnings,
    ...(updated && !Number.isNaN(updated.getTime()) ? { updatedAt: updated } : {}),
  };
}

/** `["topic__x", "area__y"]` → `#topic__x #area__y`; spaces become `-`; what cannot be a tag is reported. */
function convertTags(value: unknown, warnings: string[]): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    warnings.push(`tags were not a list (${JSON.stringify(value)}): none written`);
    return [];
  }
  const out: string[] = [];
  for (const raw of value) {
    const tag = typeof raw === 'string' ? raw.trim().replace(/^#/, '').replace(/\s+/g, '-') : '';
    if (!isTagName(tag)) {
      warnings.push(`tag ${JSON.stringify(raw)} cannot be written as an inline #tag: dropped`);
      continue;
    }
    if (!out.includes(tag)) out.push(tag);
  }
  return out;
}
