import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NotekernelError } from '../../../kernel/errors.js';
import {
  loadMapping,
  mappingWarnings,
  recommend,
  type TemplateMapping,
} from '../../../plugins/card-workflow/mapping.js';
import { defaultsDir } from '../../../plugins/card-workflow/options.js';
import { analyseTemplate, type TemplateSet } from '../../../plugins/card-workflow/templates.js';
import { removeDir, tempDir } from '../../support/temp.js';

const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map(removeDir)));

function templateSet(...names: string[]): TemplateSet {
  return {
    dir: '/t',
    invalid: [],
    templates: new Map(names.map((n) => [n, analyseTemplate(n, `/t/${n}.md`, '{{content}}')])),
  };
}

const shipped = loadMapping(path.join(defaultsDir(), 'template-mapping.yaml'));
const all = templateSet('general', 'meeting', 'literature', 'project');

describe('template mapping', () => {
  it("recommends the default with the seed's reasoning when nothing matches", () => {
    expect(recommend(shipped, all, '20251021-MCP-Tool-Driven-Design', ['#MCP', '#WorkflowDesign'])).toMatchObject({
      recommended: 'general',
      confidence: 0.85,
      reasoning: expect.stringMatching(/no type indicators/),
    });
  });

  it('scores tag matches (2) above title words (1), case- and #-insensitively', () => {
    expect(recommend(shipped, all, '20251021-Weekly-Sync', ['#Meeting'])).toMatchObject({
      recommended: 'meeting',
      confidence: 0.9,
      matched: { tags: ['meeting'], title_keywords: ['sync'] },
    });
    expect(recommend(shipped, all, '20251021-Book-Launch', ['PROJECT'])).toMatchObject({
      recommended: 'project',
      confidence: 0.9,
    });
    expect(recommend(shipped, all, '20251021-Paper-Notes', [])).toMatchObject({
      recommended: 'literature',
      confidence: 0.7,
    });
  });

  it('breaks a tie by mapping order and says so, with less confidence', () => {
    const pick = recommend(shipped, all, '20251021-Roadmap-Review', ['#reading']);
    expect(pick.recommended).toBe('literature');
    const tie = recommend(shipped, all, '20251021-Sync-Roadmap', []);
    expect(tie).toMatchObject({ recommended: 'meeting', confidence: 0.55 });
    expect(tie.reasoning).toMatch(/"project" matched as strongly/);
  });

  it('skips rules for templates that are not loaded and falls back when the default is missing', () => {
    const few = templateSet('project', 'meeting');
    expect(recommend(shipped, few, 'x', ['#book'])).toMatchObject({ recommended: 'meeting' });
    expect(mappingWarnings(shipped, few)).toEqual([
      'default template "general" is not available; "meeting" is used instead',
      expect.stringMatching(/rule for "general" is skipped/),
      expect.stringMatching(/rule for "literature" is skipped/),
    ]);
  });

  it('fails start-up naming the file for malformed YAML or a wrong shape', async () => {
    const dir = await tempDir('nk-map-');
    dirs.push(dir);
    for (const [text, reason] of [
      ['templates: [general\n', /not valid YAML/],
      ['templates:\n  - general\n', /templates/],
      ['default: general\nrules: []\n', /rules/],
      ['templates:\n  meeting:\n    tags: meeting\n', /templates\.meeting\.tags/],
    ] as const) {
      const file = path.join(dir, 'mapping.yaml');
      await fs.writeFile(file, text);
      let error: NotekernelError | undefined;
      try {
        loadMapping(file);
      } catch (err) {
        error = err as NotekernelError;
      }
      expect(error?.code, text).toBe('config_invalid');
      expect(error?.message, text).toContain(file);
      expect(error?.message, text).toMatch(reason);
    }
    await fs.writeFile(path.join(dir, 'empty.yaml'), '');
    const empty: TemplateMapping = loadMapping(path.join(dir, 'empty.yaml'));
    expect(empty).toMatchObject({ default: 'general', templates: {} });
  });
});
