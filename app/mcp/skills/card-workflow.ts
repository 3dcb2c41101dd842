/**
 * The zettelkasten card workflow as one skill with a reference per stage. The stages and their
 * tools in order are the "## Tools" table of the profile's README (the one place that says which
 * stage a tool belongs to); each tool's description is the one the vault lists; the templates and
 * naming conventions are this vault's, as `get_available_templates` names them.
 */
import { z } from 'zod';
import { zettelkastenProfile } from '../../../profiles/zettelkasten/index.js';
import type { ToolInfo } from '../../../kernel/tool.js';
import type { ToolHost } from '../../tool-host.js';
import { isTable, type MarkdownDoc, profileReadme, section, skillMarkdown, tableRows, toolLine } from './markdown.js';
import type { SkillTree } from './source.js';

export const CARD_WORKFLOW_SKILL = 'zettelkasten-card-workflow';

const templatesAnswer = z.object({
  templates: z.array(z.object({ name: z.string(), description: z.string().nullable(), sections: z.array(z.string()) })),
  invalid_templates: z.array(z.object({ name: z.string(), error: z.string() })),
  default_template: z.string(),
  naming_conventions_file: z.string(),
});

interface StageRow {
  stages: string[];
  tool: string;
  args: string;
  answer: string;
}

export async function cardWorkflowSkills(host: ToolHost): Promise<SkillTree> {
  const { doc, file } = await profileReadme(zettelkastenProfile.id);
  const toolsSection = section(doc, 'Tools', file);
  const table = toolsSection.find(isTable);
  if (!table) throw new Error(`skills: ${file} "## Tools" has no table of the workflow's tools`);
  const tools = new Map(host.tools().map((t) => [t.name, t]));
  const rows: StageRow[] = tableRows(table)
    .map(([stage = '', tool = '', args = '', answer = '']) => ({
      stages: stage.split(',').map((s) => s.trim()),
      tool: tool.replace(/`/g, '').trim(),
      args,
      answer,
    }))
    .filter((row) => tools.has(row.tool));
  const stageNames = await workflowStageNames();
  const templates = templatesAnswer.parse(await host.call('get_available_templates', {}));
  const tree: SkillTree = {};
  const stageLines: string[] = [];
  stageNames.forEach((stageName, i) => {
    const stage = String(i + 1);
    // A tool of several stages (`1, 2`) is in the sequence of its first; later stages call it
    // when a reflection asks for a revision, so there it is listed after the sequence.
    const own = rows.filter((r) => r.stages[0] === stage);
    const shared = rows.filter((r) => r.stages.indexOf(stage) > 0);
    const ref = `references/stage-${stage}-${stageName}.md`;
    tree[`${CARD_WORKFLOW_SKILL}/${ref}`] = stageReference(
      { stage, name: stageName, own, shared },
      tools,
      own.some((r) => r.tool === 'save_card') ? doc : undefined,
      file,
    );
    const names = (list: StageRow[]) => list.map((r) => `\`${r.tool}\``);
    const also = shared.length ? `; also ${names(shared).join(', ')}` : '';
    stageLines.push(`${stage}. Stage ${stage}, ${stageName}: ${names(own).join(' → ')}${also} ([${ref}](${ref}))`);
  });
  const staged = new Set(rows.filter((r) => r.stages.some((s) => /^\d+$/.test(s))).map((r) => r.tool));
  const others = host
    .tools()
    .filter((t) => t.plugin === 'card-workflow' && !staged.has(t.name))
    .map((t) => toolLine(t.name, t.description));
  tree[`${CARD_WORKFLOW_SKILL}/references/templates.md`] = templatesReference(templates);
  tree[`${CARD_WORKFLOW_SKILL}/references/naming-conventions.md`] = await conventionsReference(
    templates.naming_conventions_file,
  );
  const blocks = [
    '# Zettelkasten card workflow',
    doc.intro[0] ?? '',
    ...toolsSection.filter((b) => !isTable(b)),
    '## Stages',
    stageLines.join('\n'),
    ...(others.length ? ['## Other tools', others.join('\n')] : []),
    '## References',
    [
      '- [references/templates.md](references/templates.md): the card templates this vault has, with their sections',
      '- [references/naming-conventions.md](references/naming-conventions.md): the naming conventions `commit_title` checks titles against',
    ].join('\n'),
  ];
  tree[`${CARD_WORKFLOW_SKILL}/SKILL.md`] = skillMarkdown(
    CARD_WORKFLOW_SKILL,
    `${zettelkastenProfile.description} Load before turning a conversation into a Zettelkasten card: the stages, their tools in order, this vault's templates and naming conventions.`,
    blocks,
  );
  return tree;
}

/** The workflow's stage names in order (`draft`, `card`), from the plugin's own `stage` argument. */
async function workflowStageNames(): Promise<readonly string[]> {
  // Imported when the plugin is served (it is loaded then), so other profiles never load it.
  const { stageField } = await import('../../../plugins/card-workflow/workflow.js');
  return stageField.unwrap().options;
}

function stageReference(
  stage: { stage: string; name: string; own: readonly StageRow[]; shared: readonly StageRow[] },
  tools: Map<string, ToolInfo>,
  filenames: MarkdownDoc | undefined,
  file: string,
): string {
  const blocks = [
    `# Stage ${stage.stage}: ${stage.name}`,
    "The tools in the order the workflow calls them; each answer's `next_action` names the call after it.",
  ];
  const describe = (row: StageRow) => [
    `## \`${row.tool}\``,
    tools.get(row.tool)?.description ?? '',
    `- Arguments: ${row.args}\n- Answer: ${row.answer}`,
  ];
  for (const row of stage.own) blocks.push(...describe(row));
  if (stage.shared.length) {
    blocks.push(
      `Also called in this stage, when a \`next_action\` asks for a revision (first used in stage ${stage.shared[0]!.stages[0]}):`,
    );
    for (const row of stage.shared) blocks.push(...describe(row));
  }
  // The stage that saves the card: what save_card does with a file name is the README's "## Filenames".
  if (filenames) blocks.push('## Filenames (`save_card`)', ...section(filenames, 'Filenames', file));
  return `${blocks.join('\n\n')}\n`;
}

function templatesReference(answer: z.infer<typeof templatesAnswer>): string {
  const blocks = [
    '# Card templates',
    `\`template_selector\` recommends one of these by title and tags; \`apply_template\` fills it. Default: \`${answer.default_template}\`.`,
  ];
  for (const t of answer.templates) {
    blocks.push(
      `## \`${t.name}\``,
      [t.description ?? '', t.sections.length ? `Sections: ${t.sections.join(', ')}` : ''].filter(Boolean).join('\n\n'),
    );
  }
  if (answer.invalid_templates.length) {
    blocks.push(
      '## Refused templates',
      answer.invalid_templates.map((t) => `- \`${t.name}\`: ${t.error.replace(/\s+/g, ' ')}`).join('\n'),
    );
  }
  return `${blocks.filter(Boolean).join('\n\n')}\n`;
}

/** The conventions as the plugin reads them: the checked rules, then the prose the agent is given. */
async function conventionsReference(file: string): Promise<string> {
  const { loadConventions } = await import('../../../plugins/card-workflow/conventions.js');
  const conventions = loadConventions(file);
  const { title, content, heading } = conventions.rules;
  const prose = conventions.source === 'prose';
  const checked = [
    `- Title format: \`${title.format}\`${title.date_prefix === 'none' ? '' : ` (date prefix ${title.date_prefix})`}`,
    `- Title length: ${title.min_length}-${title.max_length} characters (${title.length_check === 'reject' ? 'refused outside' : 'a warning outside'})`,
    // A prose-only file replaces the built-in rules: its Format and Length lines are all that is checked.
    ...(prose
      ? []
      : [
          ...(title.examples.length ? [`- Examples: ${title.examples.map((e) => `\`${e}\``).join(', ')}`] : []),
          `- Content: ${content.min_words}-${content.max_words} words`,
          `- Heading: ${heading.min_length}-${heading.max_length} characters`,
        ]),
  ];
  const blocks = [
    conventions.text.startsWith('# ') ? '' : '# Naming conventions',
    conventions.text,
    '## What `commit_title` checks',
    checked.join('\n'),
  ];
  return `${blocks.filter(Boolean).join('\n\n')}\n`;
}
