import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NotekernelError } from '../../../kernel/errors.js';
import { defaultsDir } from '../../../plugins/card-workflow/options.js';
import { analyseTemplate, loadTemplates } from '../../../plugins/card-workflow/templates.js';
import { removeDir, tempDir } from '../../support/temp.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map(removeDir)));

async function templatesDir(files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = await tempDir('nk-tpl-');
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) await fs.writeFile(path.join(dir, name), text);
  return dir;
}

function malformed(text: string): string {
  try {
    analyseTemplate('t', 't.md', text);
  } catch (err) {
    return (err as Error).message;
  }
  return 'valid';
}

describe('templates', () => {
  it("ships four valid defaults with the seed's general sections", () => {
    const set = loadTemplates(path.join(defaultsDir(), 'templates'));
    expect([...set.templates.keys()].sort()).toEqual(['general', 'literature', 'meeting', 'project']);
    expect(set.invalid).toEqual([]);
    const general = set.templates.get('general');
    expect(general?.sections.map((s) => s.label)).toEqual([
      'Core Concept',
      'Detailed Explanation',
      'Practical Applications',
      'Related Links',
      'References',
    ]);
    expect(general?.sections[0]?.placeholder).toBe('core_concept');
    expect(general?.frontmatterEnd).toBe(4);
    expect(general?.hasContent).toBe(false);
  });

  it('finds sections, standard and unknown placeholders', () => {
    const t = analyseTemplate(
      'x',
      'x.md',
      '---\ntitle: {{title}}\nauthor: {{author}}\n---\n# {{ content_heading }}\n\n{{content}}\n\n## Notes\n\n{{notes}}\n\nBy {{signature}} on {{created}}\n',
    );
    expect(t.sections).toEqual([{ placeholder: 'notes', label: 'Notes' }]);
    expect(t.unknown).toEqual(['author', 'signature']);
    expect(t.hasContent).toBe(true);
  });

  it.each([
    ['', /empty/],
    ['   \n', /empty/],
    ['# {{title}\n{{content}}', /line 1: malformed placeholder/],
    ['# title}}\n{{content}}', /line 1: malformed placeholder/],
    ['# {{}}\n{{content}}', /malformed placeholder/],
    ['# {{two words}}\n{{content}}', /malformed placeholder/],
    ['---\ntitle: {{title}}\n{{content}}\n', /never closed/],
    ['---\ntitle: [{{title}}\n---\n{{content}}\n', /frontmatter is not valid YAML/],
    ['# {{title}}\n\nJust text.\n', /nowhere to put the content/],
  ])('reports %j as malformed', (text, reason) => {
    expect(malformed(text)).toMatch(reason);
  });

  it('loads the good templates and sets the bad ones aside with their reason', async () => {
    const dir = await templatesDir({
      'good.md': '# {{title}}\n\n{{content}}\n',
      'binary.md': new Uint8Array([0x23, 0x00, 0xff]),
      'latin1.md': new Uint8Array([0x23, 0x20, 0xe9, 0x0a]),
      'broken.md': '{{title\n',
      'notes.txt': 'ignored',
      '.hidden.md': 'ignored',
    });
    const set = loadTemplates(dir);
    expect([...set.templates.keys()]).toEqual(['good']);
    expect(set.invalid.map((t) => [t.name, t.path, t.error])).toEqual([
      ['binary', path.join(dir, 'binary.md'), expect.stringMatching(/NUL/)],
      ['broken', path.join(dir, 'broken.md'), expect.stringMatching(/malformed placeholder/)],
      ['latin1', path.join(dir, 'latin1.md'), expect.stringMatching(/UTF-8/)],
    ]);
  });

  it('fails start-up naming the path when the directory is missing, a file, or has no templates', async () => {
    const empty = await templatesDir({ 'readme.txt': 'no templates' });
    for (const dir of [path.join(empty, 'missing'), path.join(empty, 'readme.txt'), empty]) {
      let error: NotekernelError | undefined;
      try {
        loadTemplates(dir);
      } catch (err) {
        error = err as NotekernelError;
      }
      expect(error?.code, dir).toBe('config_invalid');
      expect(error?.message, dir).toContain(dir);
      expect(error?.details.key).toBe('plugins.card-workflow.templates_directory');
    }
  });
});
