/**
 * The zettelkasten profile end to end, continued from zettelkasten.test.ts: the built
 * `notekernel serve --profile zettelkasten` spawned by the SDK's Client. save_card keeps every
 * hostile filename inside the output directory; two users' config files shape validation and
 * cards with no code change; bad templates, mappings and output directories are reported by path.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callTool } from '../support/mcp.js';
import { HOSTILE_FILENAMES, listTree, userA, userB, withoutTime, writeUserConfig } from './zettelkasten/fixtures.js';
import { createHarness, plantPathSandbox } from './zettelkasten/harness.js';

const { sandbox, serve, startFails, cleanup } = createHarness();
afterAll(cleanup);

describe('zettelkasten: save_card path safety', () => {
  it('refuses or sanitises every hostile filename into the output directory and writes nothing elsewhere', async () => {
    expect(HOSTILE_FILENAMES.length).toBeGreaterThanOrEqual(20);
    const root = await sandbox('nk-zk-paths-');
    const { vault, cards, config, outside } = await plantPathSandbox(root);
    const before = await listTree(root);
    const session = await serve(['--config', config, '--vault', vault]);

    const saved: string[] = [];
    for (const filename of HOSTILE_FILENAMES) {
      const answer = await callTool(session.client, 'save_card', {
        formatted_card: `hostile ${JSON.stringify(filename)}\n`,
        filename,
      });
      const body = answer.body as { error?: string; filepath?: string; filename?: string };
      if (answer.isError) {
        expect(['path_outside_vault', 'validation_failed'], JSON.stringify(filename)).toContain(body.error);
        continue;
      }
      expect(path.dirname(body.filepath ?? ''), JSON.stringify(filename)).toBe(cards);
      expect(body.filename, JSON.stringify(filename)).toMatch(/^[^./\\_][^/\\\0]*\.md$/);
      saved.push(body.filename as string);
    }
    expect(saved.length).toBeGreaterThan(5);
    for (const refused of [
      '../escape.md',
      '/etc/passwd',
      'card\u0000.md',
      '..',
      'link-out.md',
      'link-in.md',
      '\uff0e\uff0e\uff0fescape.md',
    ]) {
      const answer = await callTool(session.client, 'save_card', { formatted_card: 'x\n', filename: refused });
      expect(answer.isError, JSON.stringify(refused)).toBe(true);
    }

    const after = await listTree(root);
    const added = after.filter((file) => !before.includes(file));
    for (const file of added)
      expect(file, 'written outside the output directory').toMatch(/^vault\/(cards\/[^/]+|\.notekernel\/.+)$/);
    expect(
      added
        .filter((f) => f.startsWith('vault/cards/'))
        .map((f) => path.basename(f))
        .sort(),
    ).toEqual([...new Set(saved)].sort());
    expect(await fs.readFile(outside, 'utf8')).toBe('untouched\n');
    expect(await fs.readFile(path.join(vault, 'other.md'), 'utf8')).toBe('also untouched\n');
    expect(saved).toEqual(
      expect.arrayContaining([
        'hidden.md',
        'underscore.md',
        'name-with-spaces-and-quotes.md',
        'evilgnp.md',
        'line-break.md',
      ]),
    );
  });
});

describe('zettelkasten: two users, two config files, no code change', () => {
  it("validates titles and formats cards by each user's own conventions and templates", async () => {
    const root = await sandbox('nk-zk-users-');
    const [vaultA, vaultB] = [path.join(root, 'vault-a'), path.join(root, 'vault-b')];
    await Promise.all([fs.mkdir(vaultA), fs.mkdir(vaultB)]);
    const a = await serve(['--config', await writeUserConfig(path.join(root, 'a'), userA), '--vault', vaultA]);
    const b = await serve(['--config', await writeUserConfig(path.join(root, 'b'), userB), '--vault', vaultB]);

    const dashed = '20251021-Stateless-Workflow-Design';
    const snake = '2025-10-21_stateless_workflow';
    expect((await callTool(a.client, 'commit_title', { title: dashed })).body).toMatchObject({
      status: 'title_confirmed',
    });
    expect((await callTool(b.client, 'commit_title', { title: dashed })).body).toMatchObject({
      status: 'title_rejected',
      violations: [{ rule: 'format', example: snake }],
      next_action: { tool: 'generate_title' },
    });
    expect((await callTool(b.client, 'commit_title', { title: snake })).body).toMatchObject({
      status: 'title_confirmed',
    });
    expect((await callTool(a.client, 'commit_title', { title: snake })).body).toMatchObject({
      status: 'title_rejected',
    });
    expect(
      ((await callTool(b.client, 'generate_title', {})).body as { embedded_prompt: string }).embedded_prompt,
    ).toContain('User B: ISO date');

    const parts = {
      content: 'One idea.\n\nWhy it matters.',
      heading: 'A heading',
      template_type: 'general',
      tags: ['#x', '#y'],
    };
    const cardA = (await callTool(a.client, 'apply_template', { ...parts, title: dashed })).body as {
      formatted_card: string;
    };
    const cardB = (await callTool(b.client, 'apply_template', { ...parts, title: snake })).body as {
      formatted_card: string;
    };
    expect(withoutTime(cardA.formatted_card, 0)).toBe(
      `---\ntitle: ${dashed}\ntags: [x, y]\ncreated: <TIME>\n---\n\n# A heading\n\nOne idea.\n\nWhy it matters.\n`,
    );
    expect(cardB.formatted_card.replace(/Created: \S+/, 'Created: <TIME>')).toBe(
      `# ${snake}\n\n> A heading\n\n## Idea\n\nOne idea.\n\n## Why it matters\n\nWhy it matters.\n\nTags: #x, #y | Created: <TIME>\n`,
    );
    expect(
      (await callTool(a.client, 'save_card', { formatted_card: cardA.formatted_card, filename: dashed })).body,
    ).toMatchObject({ filepath: path.join(vaultA, 'cards-a', `${dashed}.md`) });
    expect(
      (await callTool(b.client, 'save_card', { formatted_card: cardB.formatted_card, filename: snake })).body,
    ).toMatchObject({ filepath: path.join(vaultB, `${snake}.md`) });
  });
});

describe('zettelkasten: bad input', () => {
  it('a missing templates directory stops start-up, naming the path', async () => {
    const { code, stderr, root } = await startFails(
      userA,
      async (r) => void (await fs.rm(path.join(r, 'user', 'templates'), { recursive: true })),
    );
    expect(code).toBe(2);
    expect(stderr).toContain('config_invalid');
    expect(stderr).toContain(`templates directory ${path.join(root, 'user', 'templates')} does not exist`);
  });

  it('a malformed mapping file or conventions file stops start-up, naming the path', async () => {
    for (const [broken, file] of [
      [{ ...userA, mapping: 'templates: [general\n' }, 'mapping.yaml'],
      [{ ...userA, mapping: 'templates:\n  - general\n' }, 'mapping.yaml'],
      [{ ...userA, conventions: '---\ntitle:\n  min_length: many\n---\n' }, 'conventions.md'],
    ] as const) {
      const { code, stderr, root } = await startFails(broken);
      expect(code, file).toBe(2);
      expect(stderr, file).toContain(path.join(root, 'user', file));
    }
  });

  it('an output directory leaving the vault stops start-up', async () => {
    expect((await startFails({ ...userA, output: '../elsewhere' })).stderr).toMatch(
      /output_directory: "..\/elsewhere" is outside the vault/,
    );
    const linked = await startFails({ ...userA, output: 'escape' }, async (r) => {
      await fs.mkdir(path.join(r, 'outside'));
      await fs.symlink(path.join(r, 'outside'), path.join(r, 'vault', 'escape'));
    });
    expect(linked.code).toBe(2);
    expect(linked.stderr).toMatch(/output_directory: "escape" cannot be used: .*symlink/);
  });

  it('one malformed template is reported while the rest load; unknown placeholders stay visible', async () => {
    const root = await sandbox('nk-zk-tpl-');
    await fs.mkdir(path.join(root, 'vault'));
    const templates = {
      ...userA.templates,
      'broken.md': '# {{title}\n\n{{content}}\n',
      'signed.md': '# {{title}}\n\n{{content}}\n\n-- {{author}}\n',
    };
    const config = await writeUserConfig(path.join(root, 'user'), { ...userA, templates });
    const session = await serve(['--config', config, '--vault', path.join(root, 'vault')]);
    const list = (await callTool(session.client, 'get_available_templates')).body as {
      templates: Array<{ name: string }>;
      invalid_templates: Array<{ name: string; error: string; path: string }>;
    };
    expect(list.templates.map((t) => t.name)).toEqual(['general', 'signed']);
    expect(list.invalid_templates).toEqual([
      {
        name: 'broken',
        path: path.join(root, 'user', 'templates', 'broken.md'),
        error: expect.stringMatching(/line 1: malformed placeholder/),
      },
    ]);

    const broken = await callTool(session.client, 'apply_template', {
      title: 'T',
      content: 'C',
      template_type: 'broken',
      tags: [],
    });
    expect(broken).toMatchObject({ isError: true, body: { error: 'validation_failed', template: 'broken' } });
    const signed = (
      await callTool(session.client, 'apply_template', { title: 'T', content: 'C', template_type: 'signed', tags: [] })
    ).body as Record<string, unknown>;
    expect(signed.formatted_card).toBe('# T\n\nC\n\n-- {{author}}\n');
    expect(signed.unknown_placeholders).toEqual(['author']);
    expect((signed.warnings as string[])[0]).toContain('{{author}}');
  });
});
