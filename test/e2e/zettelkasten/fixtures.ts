/** Scripts, expected cards, user configs and hostile filenames for the zettelkasten e2e tests. */
import fs from 'node:fs/promises';
import path from 'node:path';
import type { AgentScript } from './agent.js';

export const P1 =
  'Tool descriptions end up in the system prompt, so a long workflow described there pollutes every turn.';
export const P2 = 'Instead each tool answers with the next action and, where the model must write, an embedded prompt.';
export const P3 = 'The server stays stateless: the client carries the title, content and tags from call to call.';
export const DRAFT = `${P1}\n\n${P2}\n\n${P3}`;

/** Straight through: valid title, no feedback, a title descriptive enough to need no heading. */
export const straightScript: AgentScript = {
  topic: 'MCP workflow design',
  contextSummary: 'We discussed driving a multi-step MCP workflow through tool answers instead of tool descriptions.',
  keyPoints: ['prompt pollution', 'next_action chaining', 'stateless server'],
  draftTitles: ['20251021-Stateless-Tool-Chain-By-Design'],
  draft: DRAFT,
  contentSummary: 'How tool answers chain a stateless MCP workflow.',
  user: { tags: ['#MCP', '#WorkflowDesign'] },
};

export const EDITED_DRAFT = `${DRAFT}\n\nEdited by the user: a closing remark.`;
export const REVISED = `${P1}\n\n${P2} For example, commit_title answers with content_thinker as its next action.\n\n${P3}`;
export const HEADING = 'MCP: Stateless Sequential Workflows Through Tool-Returned Next Actions';

/** Every optional branch: a rejected first title, then title, content and heading regenerated. */
export const branchScript: AgentScript = {
  ...straightScript,
  draftTitles: ['MCP workflow', '20251021-MCP-Stateless-Workflow'],
  user: {
    tags: ['#MCP', '#WorkflowDesign', '#MCP'],
    editedDraft: EDITED_DRAFT,
    titleFeedback: 'Emphasise the action chaining',
    contentFeedback: 'Add a concrete example',
  },
  revisedTitles: ['20251021-Stateless-Action-Chaining'],
  revisedContent: REVISED,
  heading: HEADING,
};

/** A meeting: the mapping picks the meeting template from the tags; the short title gets a heading. */
export const meetingScript: AgentScript = {
  ...straightScript,
  topic: 'weekly sync',
  draftTitles: ['20251021-Weekly-Sync-Decisions'],
  draft: 'We agreed to ship on Friday.\n\nAnna owns the release notes.',
  user: { tags: ['#Meeting', '#Team'] },
  heading: 'Weekly sync: ship on Friday, Anna owns the release notes',
};

export const STAGE_1 = [
  'start_draft_generation',
  'title_thinker',
  'generate_title',
  'commit_title',
  'content_thinker',
  'generate_content',
  'commit_draft',
];

/** The shipped general.md, filled by hand: what the card on disk must be, timestamp aside. */
export function expectedGeneral(title: string, tags: string, heading: string, paragraphs: string[]): string {
  const [first, ...rest] = paragraphs;
  return [
    '---',
    `title: ${title}`,
    `tags: ${tags}`,
    'created: <TIME>',
    '---',
    '',
    `# ${heading}`,
    '',
    '## Core Concept',
    '',
    first,
    '',
    '## Detailed Explanation',
    '',
    rest.join('\n\n'),
    '',
    '## Practical Applications',
    '',
    '## Related Links',
    '',
    '## References',
    '',
  ].join('\n');
}

/** Replaces the `created:` timestamp, checking it is a fresh ISO-8601 UTC time. */
export function withoutTime(card: string, since: number): string {
  const match = /^created: (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ)$/m.exec(card);
  if (!match?.[1]) throw new Error(`no created: timestamp in\n${card}`);
  const time = Date.parse(match[1]);
  if (time < since - 1000 || time > Date.now() + 1000)
    throw new Error(`created ${match[1]} is not the server time of this run`);
  return card.replace(match[1], '<TIME>');
}

/** Every file (and link) under dir, relative, without following links. */
export async function listTree(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await fs.readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isDirectory()) out.push(path.relative(dir, path.join(entry.parentPath, entry.name)));
  }
  return out.sort();
}

export async function writeUserConfig(
  dir: string,
  user: { templates: Record<string, string>; conventions: string; mapping: string; output?: string; extra?: string },
): Promise<string> {
  await fs.mkdir(path.join(dir, 'templates'), { recursive: true });
  for (const [name, text] of Object.entries(user.templates))
    await fs.writeFile(path.join(dir, 'templates', name), text);
  await fs.writeFile(path.join(dir, 'conventions.md'), user.conventions);
  await fs.writeFile(path.join(dir, 'mapping.yaml'), user.mapping);
  const file = path.join(dir, 'notekernel.config.yaml');
  await fs.writeFile(
    file,
    [
      'profile: zettelkasten',
      'plugins:',
      '  card-workflow:',
      // Relative paths: they resolve against this config file's folder.
      '    templates_directory: templates',
      '    naming_conventions_file: conventions.md',
      '    template_mapping_file: mapping.yaml',
      ...(user.output !== undefined ? [`    output_directory: ${JSON.stringify(user.output)}`] : []),
      ...(user.extra ? [user.extra] : []),
      '',
    ].join('\n'),
  );
  return file;
}

/** User A: the seed's convention and a compact card. */
export const userA = {
  templates: {
    'general.md':
      '---\ntitle: {{title}}\ntags: {{tags}}\ncreated: {{created}}\n---\n\n# {{content_heading}}\n\n{{content}}\n',
  },
  conventions:
    '---\ntitle:\n  format: YYYYMMDD-CoreConcept\n  min_length: 20\n  max_length: 40\n  examples: [20251021-Stateless-Workflow-Design]\n---\nUser A: dated, hyphenated, 20-40 characters.\n',
  mapping: 'default: general\ntemplates:\n  general: { description: "A: one block of text" }\n',
  output: 'cards-a',
};

/** User B: ISO dates, snake_case lowercase concepts, a different card layout saved at the root. */
export const userB = {
  templates: {
    'general.md':
      '# {{title}}\n\n> {{content_heading}}\n\n## Idea\n\n{{idea}}\n\n## Why it matters\n\n{{why}}\n\nTags: {{tags}} | Created: {{created}}\n',
  },
  conventions:
    '---\ntitle:\n  format: YYYY-MM-DD_concept\n  date_prefix: YYYY-MM-DD\n  separator: _\n  min_length: 15\n  max_length: 60\n  concept_pattern: "^[a-z0-9]+(_[a-z0-9]+)*$"\n  examples: [2025-10-21_stateless_workflow]\n---\nUser B: ISO date, underscore, lowercase words.\n',
  mapping: 'default: general\ntemplates:\n  general: { description: "B: idea and why" }\n',
};

/** At least 20 hostile names; each must be refused, or saved inside the output directory. */
export const HOSTILE_FILENAMES = [
  '../escape.md',
  '../../etc/passwd',
  '/etc/passwd',
  '/tmp/absolute.md',
  '..\\..\\windows\\win.ini',
  'sub\\card.md',
  'card\u0000.md',
  'C:\\evil.md',
  'C:evil.md',
  '..',
  '.',
  'cards/../../x.md',
  './card.md',
  '~/.ssh/authorized_keys',
  '\uff0e\uff0e\uff0fescape.md', // full-width "../"
  '%2e%2e%2fescape.md',
  '..%2F..%2Fescape',
  '.hidden.md',
  '_underscore.md',
  'name with spaces: and "quotes"?.md',
  'CON.md',
  'evil\u202Egnp.md', // right-to-left override
  'line\nbreak.md',
  'a'.repeat(300),
  'ok\u2215slash.md', // division slash look-alike
  '<script>alert(1)<\\script>.md',
  '   ',
  'link-out.md', // a symlink to a file outside the vault, planted by the test
  'link-in.md', // a symlink to a file elsewhere in the vault
];
