/**
 * flint's note types as skills: one per type (its purpose, agent instructions and metadata
 * fields, as the type's `_description.md` says them through `get_note_type_info`), and one index
 * (`note-types`) that names every type with its purpose and the tools that write notes. A type's
 * skill holds nothing that changes with its notes (no counts, no dates), so a note written does
 * not change a skill.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ToolHost } from '../../tool-host.js';
import { skillMarkdown, slug, toolLine } from './markdown.js';
import type { SkillTree } from './source.js';

/** The index skill; a type's skill is `note-type-…`, so no type name can take this one. */
export const NOTE_TYPES_SKILL = 'note-types';
const TYPE_PREFIX = 'note-type-';

const typeRows = z.array(
  z.object({
    name: z.string(),
    purpose: z.string(),
    agentInstructions: z.array(z.string()),
    unreadable: z.string().optional(),
  }),
);

const typeInfo = z.object({
  type_name: z.string(),
  description: z.string(),
  agent_instructions: z.array(z.string()),
  metadata_schema: z.object({ fields: z.array(z.record(z.string(), z.unknown())) }),
  schema_errors: z.array(z.string()).optional(),
  schema_lines: z.array(z.string()).optional(),
});
type TypeInfo = z.infer<typeof typeInfo>;

/** The tools the index names for writing notes, in the order an agent uses them. */
const WRITING_TOOLS = ['create_note', 'get_note', 'update_note', 'get_note_type_info', 'update_note_type'];

export async function noteTypeSkills(host: ToolHost): Promise<SkillTree> {
  const rows = typeRows.parse(await host.call('list_note_types', {})).sort((a, b) => a.name.localeCompare(b.name));
  const names = skillNames(rows.map((r) => r.name));
  const tree: SkillTree = {};
  const index: string[] = [];
  for (const row of rows) {
    const name = names.get(row.name)!;
    if (row.unreadable) {
      // Listed, not published: the index says why, as list_note_types does.
      index.push(`| ${cell(row.name)} | ${cell(row.purpose)} (unreadable: ${cell(row.unreadable)}) | — |`);
      continue;
    }
    const info = typeInfo.parse(await host.call('get_note_type_info', { type_name: row.name }));
    tree[`${name}/SKILL.md`] = typeSkill(name, info);
    index.push(`| ${cell(row.name)} | ${cell(row.purpose)} | \`${name}\` |`);
  }
  tree[`${NOTE_TYPES_SKILL}/SKILL.md`] = indexSkill(host, rows, index);
  return tree;
}

function typeSkill(name: string, info: TypeInfo): string {
  const type = info.type_name;
  const blocks = [
    `# Note type "${type}"`,
    info.description,
    `A note of this type is created with \`create_note\` and \`type: ${JSON.stringify(type)}\`; its metadata holds the fields below.`,
  ];
  if (info.agent_instructions.length) {
    blocks.push('## Agent instructions', info.agent_instructions.map((i) => `- ${i}`).join('\n'));
  }
  const fields = info.metadata_schema.fields.map(fieldLine);
  const raw = (info.schema_lines ?? []).map((l) => `- ${l}`);
  if (fields.length || raw.length) blocks.push('## Metadata fields', [...fields, ...raw].join('\n'));
  if (info.schema_errors?.length) {
    blocks.push(
      '## Schema problems',
      `The type's schema has faults; \`update_note_type\` fixes them:\n${info.schema_errors.map((e) => `- ${e}`).join('\n')}`,
    );
  }
  blocks.push(
    `Source: the type's \`_description.md\`. \`get_note_type_info\` with \`type_name: ${JSON.stringify(type)}\` answers the same, with the content_hash \`update_note_type\` needs.`,
  );
  return skillMarkdown(
    name,
    `Notes of type "${type}" in this vault: ${sentence(info.description)} Load before creating or updating a "${type}" note: the type's agent instructions and metadata fields.`,
    blocks,
  );
}

function indexSkill(host: ToolHost, rows: { name: string }[], index: string[]): string {
  const tools = host.tools();
  const writing = WRITING_TOOLS.flatMap((n) => tools.filter((t) => t.name === n)).map((t) =>
    toolLine(t.name, t.description),
  );
  const blocks = [
    '# Note types',
    'Every note in this vault has a type: a folder whose `_description.md` holds its purpose, agent instructions and metadata schema. Choose the type whose purpose fits, then load its skill before writing the note.',
    rows.length
      ? ['| type | purpose | skill |', '|---|---|---|', ...index].join('\n')
      : 'This vault has no note types yet.',
  ];
  if (writing.length) blocks.push('## Writing notes', writing.join('\n'));
  const listed = rows.map((r) => r.name).join(', ') || 'none yet';
  return skillMarkdown(
    NOTE_TYPES_SKILL,
    `The note types of this vault (${listed}) and when to use each. Load before creating a note to choose its type; each type's own skill (${TYPE_PREFIX}<type>) holds its instructions and fields.`,
    blocks,
  );
}

/** `- \`rating\` (number, required; min: 1, max: 5): Personal rating` */
function fieldLine(field: Record<string, unknown>): string {
  const facts = [String(field.type ?? 'string'), field.required ? 'required' : 'optional'].join(', ');
  const constraints = Object.entries((field.constraints as Record<string, unknown> | undefined) ?? {})
    .map(([key, value]) => `${key}: ${Array.isArray(value) ? value.join(', ') : String(value)}`)
    .concat(field.default !== undefined ? [`default: ${JSON.stringify(field.default)}`] : []);
  const detail = constraints.length ? `${facts}; ${constraints.join('; ')}` : facts;
  const description = typeof field.description === 'string' && field.description ? `: ${field.description}` : '';
  return `- \`${String(field.name)}\` (${detail})${description}`;
}

/**
 * Each type's skill name, unique and stable: the type name made fit for the SDK's rule, with a
 * short hash of the type name where that leaves nothing (another script) or two types meet
 * (`Reading` and `reading` on a case-sensitive disk).
 */
export function skillNames(types: readonly string[]): Map<string, string> {
  const max = 64 - TYPE_PREFIX.length;
  const hashed = (type: string, room: number) => {
    const base = slug(type, room - 7);
    const hash = createHash('sha256').update(type).digest('hex').slice(0, 6);
    return base ? `${base}-${hash}` : hash;
  };
  const bySlug = new Map<string, string[]>();
  for (const type of types) {
    const key = slug(type, max);
    bySlug.set(key, [...(bySlug.get(key) ?? []), type]);
  }
  const names = new Map<string, string>();
  for (const [key, group] of bySlug) {
    for (const type of group) names.set(type, TYPE_PREFIX + (key && group.length === 1 ? key : hashed(type, max)));
  }
  return names;
}

/** Text that ends as a sentence, so the next one does not run into it. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?…]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** A table cell: one line, `|` escaped. */
function cell(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/\|/g, '\\|').trim();
}
