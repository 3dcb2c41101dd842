/**
 * agent-memory's conventions as one skill: what an entry is and how it is written, linked and
 * laid out (the profile README's opening, its field table and "## Layout"), with the tools
 * (its "## Tools") as a reference and the served prompts named.
 */
import { agentMemoryProfile } from '../../../profiles/agent-memory/index.js';
import type { ToolHost } from '../../tool-host.js';
import { isFence, isTable, profileReadme, section, skillMarkdown, toolLine } from './markdown.js';
import type { SkillTree } from './source.js';

export const MEMORY_SKILL = 'agent-memory';

export async function memorySkills(host: ToolHost): Promise<SkillTree> {
  const { doc, file } = await profileReadme(agentMemoryProfile.id);
  const layout = section(doc, 'Layout', file);
  const tools = section(doc, 'Tools', file);
  // The opening paragraph, then each table with the paragraph after it (how an entry is written):
  // the README's other opening paragraphs and its commands are about starting the server.
  const conventions = doc.intro.filter(
    (block, i) => i === 0 || isTable(block) || (i > 0 && isTable(doc.intro[i - 1]!) && !isFence(block)),
  );
  const prompts = host.prompts().map((p) => toolLine(p.name, p.description ?? ''));
  const blocks = [
    '# Agent memory',
    ...conventions,
    '## Layout',
    ...layout,
    '## Tools',
    'Every `memory_*` tool, its arguments and its answer: [references/tools.md](references/tools.md).',
    ...(prompts.length ? ['## Prompts', prompts.join('\n')] : []),
  ];
  return {
    [`${MEMORY_SKILL}/SKILL.md`]: skillMarkdown(
      MEMORY_SKILL,
      `${agentMemoryProfile.description} Load before capturing, reading, linking, updating or reorganising memories: the entry format, links, tags and where entries go.`,
      blocks,
    ),
    [`${MEMORY_SKILL}/references/tools.md`]: `${['# Memory tools', ...tools].join('\n\n')}\n`,
  };
}
