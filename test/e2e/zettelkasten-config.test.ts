/**
 * Seed 001's configuration as the seed writes it (issue 31): its flat config.yaml (§ 6.1,
 * verbatim) named by CONFIG_PATH (§ 11.3), its § 6.2 template, its naming convention as a prose
 * file, and `output_directory: "~/zettelkasten/cards"` — through the SDK's Client on the built CLI.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { listTree, writeUserConfig } from './zettelkasten/fixtures.js';
import { createHarness } from './zettelkasten/harness.js';
import { seedCaller, seedProject, TAGS, TITLE_1 } from './zettelkasten/seed.js';

const { sandbox, cleanup } = createHarness();
const sessions: StdioSession[] = [];
afterAll(async () => {
  await Promise.all(sessions.map((s) => s.close()));
  await cleanup();
});

async function serveWith(args: string[], env: Record<string, string>): Promise<StdioSession> {
  const session = await connectStdio(['serve', ...args], env);
  sessions.push(session);
  return session;
}

const CARD = 'One idea.\n\nWhy it matters.';

describe("zettelkasten: seed 001's config.yaml, CONFIG_PATH and ~/zettelkasten/cards as written", () => {
  it('starts from the flat config.yaml that CONFIG_PATH names, with no other argument, and saves into ~/zettelkasten/cards', async () => {
    const root = await sandbox('nk-zk-seedcfg-');
    const { home, project, config, cards } = await seedProject(root);
    // § 11.3's client config: the command and CONFIG_PATH, nothing else.
    const session = await serveWith([], { CONFIG_PATH: config, HOME: home });
    const call = seedCaller(session.client);

    const templates = await call('get_available_templates');
    expect(templates).toMatchObject({
      templates: [
        {
          name: 'general',
          sections: ['Core Concept', 'Detailed Explanation', 'Practical Applications', 'Related Links', 'References'],
        },
      ],
      templates_directory: path.join(project, 'templates'),
      naming_conventions_file: path.join(project, 'config', 'naming-conventions.md'),
    });
    // The prose conventions file is the convention; the seed's own titles pass it.
    const prompt = await call('generate_title');
    expect(prompt.rules).toMatchObject({ format: 'YYYYMMDD-CoreConcept', min_length: 20, max_length: 40 });
    expect(prompt.embedded_prompt).toContain(
      `Naming Convention (yours, from ${path.join(project, 'config', 'naming-conventions.md')}):\nNaming Convention:\n- Format: YYYYMMDD-CoreConcept`,
    );
    expect(await call('commit_title', { title: TITLE_1 })).toMatchObject({ status: 'title_confirmed' });
    expect(session.stderr()).toContain(
      'naming conventions without frontmatter: the built-in rules are replaced by what the prose states (format YYYYMMDD-CoreConcept',
    );

    const formatted = await call('apply_template', {
      title: TITLE_1,
      content: CARD,
      template_type: 'general',
      tags: TAGS,
    });
    const saved = await call('save_card', { formatted_card: formatted.formatted_card, filename: `${TITLE_1}.md` });
    // The vault is the folder the seed writes to: the card is a note of it, indexed.
    expect(saved).toMatchObject({
      status: 'saved',
      filepath: path.join(cards, `${TITLE_1}.md`),
      note_id: `${TITLE_1}.md`,
    });
    expect(await fs.readFile(path.join(cards, `${TITLE_1}.md`), 'utf8')).toContain(
      '## Core Concept\n\nOne idea.\n\n## Detailed Explanation\n\nWhy it matters.\n',
    );
    const found = (await callTool(session.client, 'find_cards', { query: 'matters' })).body as {
      cards: Array<{ filename: string }>;
    };
    expect(found.cards.map((c) => c.filename)).toEqual([`${TITLE_1}.md`]);
    // Saving again keeps the old one (create_backup: true).
    expect(
      await call('save_card', { formatted_card: `${formatted.formatted_card}\nmore\n`, filename: `${TITLE_1}.md` }),
    ).toMatchObject({ backup_created: true });
  });

  it('with --vault elsewhere, ~/zettelkasten/cards is the one folder outside the vault cards are written to', async () => {
    const root = await sandbox('nk-zk-seedout-');
    const { home, config, cards } = await seedProject(root);
    const vault = path.join(root, 'vault');
    await fs.mkdir(vault);
    const before = await listTree(root);
    const session = await serveWith(['--vault', vault], { CONFIG_PATH: config, HOME: home });
    const call = seedCaller(session.client);

    const formatted = await call('apply_template', {
      title: TITLE_1,
      content: CARD,
      template_type: 'general',
      tags: TAGS,
    });
    expect(await call('save_card', { formatted_card: formatted.formatted_card, filename: TITLE_1 })).toMatchObject({
      status: 'saved',
      filepath: path.join(cards, `${TITLE_1}.md`),
      relative_path: `${TITLE_1}.md`,
      note_id: null,
    });
    for (const hostile of ['../escape.md', '/etc/passwd', '~/.ssh/authorized_keys', '..']) {
      expect(
        (await callTool(session.client, 'save_card', { formatted_card: 'x\n', filename: hostile })).isError,
        hostile,
      ).toBe(true);
    }
    const read = (await callTool(session.client, 'find_cards', { filename: TITLE_1 })).body as { path: string };
    expect(read.path).toBe(path.join(cards, `${TITLE_1}.md`));

    const added = (await listTree(root)).filter((file) => !before.includes(file));
    for (const file of added)
      expect(file, 'written outside the vault and the output folder').toMatch(
        /^(home\/zettelkasten\/cards\/[^/]+\.md|vault\/\.notekernel\/.+)$/,
      );
    expect(added).toContain(`home/zettelkasten/cards/${TITLE_1}.md`);
  });

  it('a CONFIG_PATH that names no readable file stops start-up naming the variable', async () => {
    const root = await sandbox('nk-zk-seedenv-');
    const run = await runCli(['serve', '--profile', 'zettelkasten', '--vault', root], {
      env: { CONFIG_PATH: path.join(root, 'missing.yaml') },
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/CONFIG_PATH=.*missing\.yaml: .*cannot be read.*unset it or pass --config/);
  });
});

describe('zettelkasten: a prose-only naming conventions file replaces the built-in YYYYMMDD- rule', () => {
  const conventionsOnly = (conventions: string) => ({
    templates: { 'general.md': '# {{title}}\n\n{{content}}\n' },
    conventions,
    mapping: 'default: general\n',
  });

  it('its Format: line is the rule; without one, titles are not format-checked and the log says why', async () => {
    const root = await sandbox('nk-zk-prose-');
    await Promise.all([fs.mkdir(path.join(root, 'v1')), fs.mkdir(path.join(root, 'v2'))]);
    const iso = await writeUserConfig(
      path.join(root, 'iso'),
      conventionsOnly('# Our cards\n\n- Format: YYYY-MM-DD_concept\n- Length: 15-60 characters\n'),
    );
    const a = await serveWith(['--config', iso, '--vault', path.join(root, 'v1')], {});
    expect((await callTool(a.client, 'commit_title', { title: '2025-10-21_stateless_workflow' })).body).toMatchObject({
      status: 'title_confirmed',
    });
    expect((await callTool(a.client, 'commit_title', { title: '20251021-Stateless-Workflow' })).body).toMatchObject({
      status: 'title_rejected',
      violations: [{ rule: 'format' }],
    });

    const free = await writeUserConfig(
      path.join(root, 'free'),
      conventionsOnly('Titles are short English phrases that name one idea.\n'),
    );
    const b = await serveWith(['--config', free, '--vault', path.join(root, 'v2')], {});
    expect(
      (await callTool(b.client, 'commit_title', { title: 'Tool answers chain a stateless workflow' })).body,
    ).toMatchObject({ status: 'title_confirmed' });
    const prompt = (await callTool(b.client, 'generate_title', {})).body as { embedded_prompt: string };
    expect(prompt.embedded_prompt).toContain('Titles are short English phrases that name one idea.');
    expect(prompt.embedded_prompt).not.toContain('YYYYMMDD');
    expect(b.stderr()).toContain('without a Format: line: the built-in YYYYMMDD- rule is replaced by the prose');
  });
});
