import { z } from 'zod';
import { toNotekernelError } from '../../../kernel/errors.js';
import type { Note } from '../../../kernel/note.js';
import { defineTool, type ToolContext } from '../../../kernel/tool.js';
import { LINKS, type LinkRef } from '../../links/service.js';
import { NOTE_TYPES } from '../../note-types/service.js';
import { isSystemKey, type TypeSchema } from '../../../toolkit/metadata-fields.js';
import { SCHEMA, type FieldIssue } from '../../schema/service.js';
import { bool, num, record, str, strs } from '../../../toolkit/tool-output.js';
import { noteIdField, vaultIdField } from '../../../toolkit/tool-fields.js';

export const analyzeNoteTool = defineTool({
  name: 'analyze_note',
  description:
    "Check a note against its type (no LLM): missing required, invalid or unknown metadata, empty optional fields, broken links, schema faults; with suggestions and the type's agent instructions.",
  input: z.object({
    identifier: noteIdField,
    vault_id: vaultIdField,
  }),
  output: z.object({
    id: str,
    title: str,
    type: str,
    content_hash: str,
    schema: z.object({ fields: num, valid: bool, errors: strs }).nullable(),
    missing_required: strs,
    invalid_fields: z.array(record),
    unknown_fields: strs,
    missing_optional: strs,
    broken_links: z.array(z.object({ target: str, line_number: num, link_text: str.optional() })),
    links_checked: bool,
    agent_instructions: strs,
    content_stats: z.object({ words: num, lines: num, headings: num }),
    read_warnings: strs.optional(),
    suggestions: strs,
  }),
  annotations: { title: 'Analyze note', readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  async handler(args, ctx) {
    const note = await ctx.notes.require(args.identifier);
    const type = note.type ?? '';
    const typeInfo = await ctx.tryResolve(NOTE_TYPES)?.get(type);
    const schema = await ctx.tryResolve(SCHEMA)?.forType(type);
    const metadata = schemaGaps(ctx, note, schema);
    const links = await brokenLinks(ctx, note);
    const analysis = {
      id: note.id,
      title: note.title,
      type: note.type,
      content_hash: note.contentHash,
      schema: schema
        ? { fields: schema.fields.length, valid: schema.errors.length === 0, errors: schema.errors }
        : null,
      ...(await metadata),
      broken_links: links.broken.map((l) => ({
        target: l.target_title,
        line_number: l.line_number,
        ...(l.link_text ? { link_text: l.link_text } : {}),
      })),
      links_checked: links.checked,
      agent_instructions: typeInfo?.description.agentInstructions ?? [],
      content_stats: contentStats(note.content),
      ...(note.warnings ? { read_warnings: note.warnings } : {}),
    };
    return { ...analysis, suggestions: suggestionsFor(analysis, type, links.reason) };
  },
});

async function schemaGaps(ctx: ToolContext, note: Note, schema: TypeSchema | undefined) {
  const empty = {
    missing_required: [] as string[],
    invalid_fields: [] as FieldIssue[],
    unknown_fields: [] as string[],
    missing_optional: [] as string[],
  };
  const service = ctx.tryResolve(SCHEMA);
  if (!schema || !service) return empty;
  const custom = Object.fromEntries(Object.entries(note.metadata).filter(([k]) => !isSystemKey(k)));
  const present = Object.keys(custom).filter((k) => custom[k] !== null);
  const result = await service.check({
    type: note.type ?? '',
    metadata: custom,
    op: 'update',
    changedKeys: present,
    strict: false,
  });
  const has = (name: string) => custom[name] !== undefined && custom[name] !== null;
  const fields = schema.fields.filter((f) => !isSystemKey(f.name));
  return {
    // A required field with a default counts as missing: it is filled only on the next metadata write.
    missing_required: fields.filter((f) => f.required && !has(f.name)).map((f) => f.name),
    invalid_fields: result.errors.filter((e) => e.rule !== 'required'),
    unknown_fields: result.warnings.filter((w) => w.rule === 'unknown_field').map((w) => w.field),
    missing_optional: fields.filter((f) => !f.required && !has(f.name)).map((f) => f.name),
  };
}

async function brokenLinks(
  ctx: ToolContext,
  note: Note,
): Promise<{ broken: LinkRef[]; checked: boolean; reason?: string }> {
  const links = ctx.tryResolve(LINKS);
  if (!links) return { broken: [], checked: false, reason: 'the links plugin is not loaded' };
  try {
    return { broken: await links.brokenFrom(note.id), checked: true };
  } catch (err) {
    return { broken: [], checked: false, reason: toNotekernelError(err).message };
  }
}

function contentStats(content: string) {
  const trimmed = content.trim();
  return {
    words: trimmed === '' ? 0 : trimmed.split(/\s+/).length,
    lines: trimmed === '' ? 0 : trimmed.split(/\r?\n/).length,
    headings: (content.match(/^#{1,6}\s+\S/gm) ?? []).length,
  };
}

interface AnalysisFacts {
  schema: { errors: string[] } | null;
  missing_required: string[];
  invalid_fields: FieldIssue[];
  unknown_fields: string[];
  missing_optional: string[];
  broken_links: Array<{ target: string; line_number: number }>;
  content_stats: { words: number };
}

/** Fixed wording from the facts above, in a fixed order: the same note always gets the same answer. */
function suggestionsFor(a: AnalysisFacts, type: string, linksReason: string | undefined): string[] {
  const out: string[] = [];
  if (a.schema?.errors.length)
    out.push(
      `The metadata schema of note type '${type}' has faults; fix them with update_note_type (see get_note_type_info).`,
    );
  for (const field of a.missing_required) out.push(`Add the required metadata field '${field}'.`);
  for (const issue of a.invalid_fields) out.push(`Fix ${issue.message}.`);
  for (const field of a.unknown_fields)
    out.push(
      `Field '${field}' is not in the '${type}' schema: add it with update_note_type or remove it from the note.`,
    );
  for (const link of a.broken_links)
    out.push(
      `Link [[${link.target}]] on line ${link.line_number} points to no note: create that note or correct the link.`,
    );
  if (a.missing_optional.length) out.push(`Consider filling the optional fields: ${a.missing_optional.join(', ')}.`);
  if (a.content_stats.words === 0) out.push('The note has no content yet.');
  if (linksReason) out.push(`Links were not checked: ${linksReason}.`);
  return out;
}
