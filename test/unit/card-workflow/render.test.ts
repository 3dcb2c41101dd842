import yaml from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { renderCard, yamlScalar } from '../../../plugins/card-workflow/render.js';
import { analyseTemplate } from '../../../plugins/card-workflow/templates.js';

const CREATED = '2025-10-21T18:30:00Z';
const general = analyseTemplate(
  'general',
  'general.md',
  '---\ntitle: {{title}}\ntags: {{tags}}\ncreated: {{created}}\n---\n\n# {{content_heading}}\n\n## Core Concept\n\n{{core_concept}}\n\n## Detailed Explanation\n\n{{detailed_explanation}}\n\n## Related Links\n\n{{related_links}}\n',
);

function frontmatter(text: string): Record<string, unknown> {
  return yaml.load(/^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '', { schema: yaml.CORE_SCHEMA }) as Record<
    string,
    unknown
  >;
}

describe('renderCard', () => {
  it('fills title, heading, tags, created and spreads paragraphs over the first two sections', () => {
    const card = renderCard(general, {
      title: '20251021-MCP-Design',
      content: 'One.\n\nTwo.\n\nThree.',
      heading: 'MCP: design',
      tags: ['#MCP', '#Work Flow'],
      created: CREATED,
    });
    expect(card.text).toBe(
      '---\ntitle: 20251021-MCP-Design\ntags: [MCP, Work Flow]\ncreated: 2025-10-21T18:30:00Z\n---\n\n# MCP: design\n\n## Core Concept\n\nOne.\n\n## Detailed Explanation\n\nTwo.\n\nThree.\n\n## Related Links\n',
    );
    expect(card).toMatchObject({
      sectionsPopulated: ['Core Concept', 'Detailed Explanation'],
      sectionsEmpty: ['Related Links'],
      unknownPlaceholders: [],
      unusedSections: [],
    });
    expect(frontmatter(card.text)).toEqual({
      title: '20251021-MCP-Design',
      tags: ['MCP', 'Work Flow'],
      created: CREATED,
    });
  });

  it('keeps the frontmatter valid YAML whatever the title and tags hold', () => {
    for (const title of [
      'a: b',
      '#not a comment',
      '2025',
      'true',
      "it's",
      'line\nbreak',
      '[x]',
      '- item',
      '  padded  ',
      '"quoted"',
    ]) {
      const card = renderCard(general, { title, content: 'x', tags: ['#a,b', 'c: d', '#'], created: CREATED });
      expect(frontmatter(card.text), JSON.stringify(title)).toEqual({
        title,
        tags: ['a,b', 'c: d', ''],
        created: CREATED,
      });
    }
    expect(yamlScalar('20251021-Plain-Title')).toBe('20251021-Plain-Title');
    expect(yamlScalar('null')).toBe('"null"');
  });

  it('uses the title as content heading when no heading is given', () => {
    expect(renderCard(general, { title: 'T-1', content: 'x', tags: [], created: CREATED }).text).toContain('\n# T-1\n');
  });

  it('places text by section label or placeholder, and reports sections it cannot place', () => {
    const card = renderCard(general, {
      title: 'T',
      content: 'ignored when sections are given',
      tags: [],
      created: CREATED,
      sections: { 'Core Concept': 'Core.', related_links: '[[Other card]]', Nonexistent: 'lost' },
    });
    expect(card.text).toContain(
      '## Core Concept\n\nCore.\n\n## Detailed Explanation\n\n## Related Links\n\n[[Other card]]\n',
    );
    expect(card.sectionsPopulated).toEqual(['Core Concept', 'Related Links']);
    expect(card.sectionsEmpty).toEqual(['Detailed Explanation']);
    expect(card.unusedSections).toEqual(['Nonexistent']);
  });

  it('puts all content into a single section, or into {{content}} when the template has it', () => {
    const one = analyseTemplate('one', 'one.md', '# {{title}}\n\n## Body\n\n{{body}}\n');
    expect(renderCard(one, { title: 'T', content: 'A.\n\nB.', tags: [], created: CREATED }).text).toBe(
      '# T\n\n## Body\n\nA.\n\nB.\n',
    );
    const plain = analyseTemplate(
      'plain',
      'plain.md',
      '# {{title}}\n\n{{content}}\n\n## Extra\n\n{{extra}}\n\nTags: {{tags}} · {{created}}\n',
    );
    const card = renderCard(plain, { title: 'T', content: '  A.\n\nB.  ', tags: ['#x', '#y'], created: CREATED });
    expect(card.text).toBe('# T\n\nA.\n\nB.\n\n## Extra\n\nTags: #x, #y · 2025-10-21T18:30:00Z\n');
  });

  it('leaves unknown placeholders visible and reports them', () => {
    const t = analyseTemplate(
      'u',
      'u.md',
      '---\ntitle: {{title}}\nauthor: {{author}}\n---\n{{content}}\n\nMood: {{mood}}, again {{mood}}\n',
    );
    const card = renderCard(t, { title: 'T', content: 'C', tags: [], created: CREATED });
    expect(card.text).toBe('---\ntitle: T\nauthor: {{author}}\n---\nC\n\nMood: {{mood}}, again {{mood}}\n');
    expect(card.unknownPlaceholders).toEqual(['author', 'mood']);
  });
});
