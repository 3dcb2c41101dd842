/**
 * The card-workflow plugin inside a real kernel (fs-sqlite on a temp vault): saved cards are
 * notes, backups and refusals follow the options, start-up checks name the key, and the tools
 * answer the same way every time because nothing is kept between calls.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { NotekernelError } from '../../../kernel/errors.js';
import { SEARCH_INDEX } from '../../../kernel/tokens.js';
import { resolveUserPath } from '../../../plugins/card-workflow/options.js';
import { createTestKernel, type TestKernel } from '../../support/temp.js';

const open: TestKernel[] = [];
afterEach(async () => Promise.all(open.splice(0).map((t) => t.close())));

async function kernel(
  options: Record<string, unknown> = {},
  extra: { readOnly?: boolean; root?: string } = {},
): Promise<TestKernel> {
  const t = await createTestKernel({
    profile: 'zettelkasten',
    config: { plugins: { 'card-workflow': options } },
    ...extra,
  });
  open.push(t);
  return t;
}

async function failure(promise: Promise<unknown>): Promise<NotekernelError> {
  try {
    await promise;
  } catch (err) {
    return err as NotekernelError;
  }
  throw new Error('expected a failure');
}

const CARD_ARGS = {
  title: '20251021-Stateless-Workflow-Notes',
  content: 'Stateless servers chain tools.\n\nEach answer names the next action.',
  tags: ['#MCP', '#WorkflowDesign'],
  template_type: 'general',
};

describe('card-workflow plugin', () => {
  it('saves a card that is a note: indexed with its title, tags and created time, and searchable', async () => {
    const t = await kernel({ output_directory: 'cards' });
    expect((await fs.stat(path.join(t.root, 'cards'))).isDirectory()).toBe(true); // vault.init made it
    const formatted = (await t.vault.call('apply_template', CARD_ARGS)) as {
      formatted_card: string;
      timestamp_added: string;
    };
    const saved = (await t.vault.call('save_card', {
      formatted_card: formatted.formatted_card,
      filename: `${CARD_ARGS.title}.md`,
    })) as Record<string, unknown>;
    expect(saved).toMatchObject({
      status: 'saved',
      relative_path: `cards/${CARD_ARGS.title}.md`,
      note_id: `cards/${CARD_ARGS.title}.md`,
      created: true,
    });
    const note = await t.vault.notes.get(`cards/${CARD_ARGS.title}.md`);
    expect(note).toMatchObject({
      title: CARD_ARGS.title,
      tags: ['MCP', 'WorkflowDesign'],
      created: formatted.timestamp_added,
    });
    const hits = await t.vault.resolve(SEARCH_INDEX).search({ text: 'stateless', limit: 5 });
    expect(hits.hits.map((h) => h.id)).toContain(`cards/${CARD_ARGS.title}.md`);
  });

  it('backs up every earlier version, skips identical content, and refuses to overwrite when backups are off', async () => {
    const t = await kernel();
    const save = (text: string) =>
      t.vault.call('save_card', { formatted_card: text, filename: 'card' }) as Promise<Record<string, unknown>>;
    expect(await save('v1\n')).toMatchObject({ created: true, backup_created: false });
    expect(await save('v1\n')).toMatchObject({ created: false, backup_created: false, unchanged: true });
    expect(await save('v2\n')).toMatchObject({ backup_path: path.join(t.root, 'card.md.backup') });
    expect(await save('v3\n')).toMatchObject({ backup_path: path.join(t.root, 'card.md.backup.2') });
    expect(await fs.readFile(path.join(t.root, 'card.md.backup'), 'utf8')).toBe('v1\n');
    expect(await fs.readFile(path.join(t.root, 'card.md.backup.2'), 'utf8')).toBe('v2\n');

    const strict = await kernel({ file_operations: { create_backup: false } });
    await strict.vault.call('save_card', { formatted_card: 'mine\n', filename: 'card.md' });
    const refused = await failure(strict.vault.call('save_card', { formatted_card: 'other\n', filename: 'card.md' }));
    expect(refused.code).toBe('conflict');
    expect(refused.message).toMatch(/create_backup is off/);
    expect(await fs.readFile(path.join(strict.root, 'card.md'), 'utf8')).toBe('mine\n');
  });

  it('with filename_sanitization off, refuses unsafe names instead of changing them', async () => {
    const t = await kernel({ file_operations: { filename_sanitization: false } });
    const error = await failure(t.vault.call('save_card', { formatted_card: 'x\n', filename: 'my card?.md' }));
    expect(error).toMatchObject({ code: 'validation_failed', details: { suggestion: 'my-card.md' } });
    expect(await t.vault.call('save_card', { formatted_card: 'x\n', filename: 'my-card' })).toMatchObject({
      filename: 'my-card.md',
      sanitized: false,
    });
  });

  it('resolves relative option paths against the vault and ~ against the home folder', async () => {
    const root = await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), 'nk-zk-rel-')));
    await fs.mkdir(path.join(root, 'my-templates'));
    await fs.writeFile(path.join(root, 'my-templates', 'mine.md'), '# {{title}}\n\n{{content}}\n');
    await fs.writeFile(path.join(root, 'map.yaml'), 'default: mine\n');
    const t = await kernel({ templates_directory: 'my-templates', template_mapping_file: 'map.yaml' }, { root });
    const list = (await t.vault.call('get_available_templates')) as Record<string, unknown>;
    expect(list).toMatchObject({
      templates: [{ name: 'mine' }],
      default_template: 'mine',
      templates_directory: path.join(root, 'my-templates'),
    });
    expect(list.naming_conventions_file).toMatch(/defaults[/\\]naming-conventions\.md$/);
    expect(resolveUserPath('~/zettel', '/vault')).toBe(path.join(os.homedir(), 'zettel'));
    expect(resolveUserPath('/abs', '/vault')).toBe('/abs');
    await fs.rm(root, { recursive: true, force: true });
  });

  it('fails start-up naming the key for bad options', async () => {
    for (const [options, pattern] of [
      [{ templates_dir: 'x' }, /plugins\.card-workflow.*templates_dir/],
      [{ output_directory: '.hidden' }, /output_directory: "\.hidden" is a hidden or reserved folder/],
      [
        { output_directory: '../elsewhere' },
        /output_directory: "..\/elsewhere" is outside the vault .*write it as an absolute or ~\/ path/,
      ],
      [{ naming_conventions_file: 'missing.md' }, /naming_conventions_file: file not found: .*missing\.md/],
      [{ file_operations: { create_backup: 'yes' } }, /file_operations\.create_backup/],
    ] as const) {
      const error = await failure(kernel(options));
      expect(error.code, JSON.stringify(options)).toBe('config_invalid');
      expect(error.message, JSON.stringify(options)).toMatch(pattern);
    }
  });

  it('answers the same call the same way twice; reset_workflow closes the workflow record', async () => {
    const t = await kernel();
    for (const [tool, args] of [
      ['title_thinker', { context_summary: 'x' }],
      ['commit_title', { title: '20251021-MCP-Tool-Driven-Design' }],
      ['title_reflection', { original_title: 'bad title' }],
      ['template_selector', { title: '20251021-Weekly-Sync', tags: ['#meeting'] }],
    ] as const) {
      expect(await t.vault.call(tool, args), tool).toEqual(await t.vault.call(tool, args));
    }
    const reset = (await t.vault.call('reset_workflow', {})) as { workflow_id: string; message: string };
    expect(reset).toMatchObject({
      status: 'workflow_reset',
      message: expect.stringMatching(/is closed/),
      next_action: { tool: 'start_draft_generation' },
    });
    expect(await t.vault.call('reset_workflow', {})).toMatchObject({
      status: 'workflow_reset',
      message: expect.stringMatching(/^No open workflow record/),
    });
    expect(await t.vault.call('generate_title', {})).toMatchObject({ stage: 'draft', mode: 'first_draft' });
  });

  it("reflections: the agent's verdict decides, else feedback, else the rules", async () => {
    const t = await kernel();
    expect(
      await t.vault.call('title_reflection', {
        original_title: '20251021-MCP-Tool-Driven-Design',
        needs_modification: true,
        reasoning: 'too vague',
      }),
    ).toMatchObject({
      needs_modification: true,
      reasoning: 'too vague',
      next_action: { tool: 'generate_title', arguments: { stage: 'card', user_feedback: 'too vague' } },
    });
    expect(await t.vault.call('title_reflection', { original_title: 'not a convention title' })).toMatchObject({
      needs_modification: true,
      violations: [{ rule: 'format' }],
    });
    expect(
      await t.vault.call('content_reflection', { original_content: '# Heading\n\ntext', needs_modification: false }),
    ).toMatchObject({
      needs_modification: false,
      warnings: [expect.stringMatching(/markdown headings/)],
      next_action: { tool: 'heading_reflection' },
    });
    expect(
      await t.vault.call('heading_reflection', {
        title: '20251021-MCP-Tool-Driven-Workflow-Design',
        content_summary: 's',
      }),
    ).toMatchObject({ needs_heading: false, next_action: { tool: 'template_selector' } });
    expect(
      await t.vault.call('heading_reflection', { title: '20251021-MCP-Design', content_summary: 's' }),
    ).toMatchObject({ needs_heading: true, next_action: { tool: 'generate_heading' } });
    // Seed 001 gives its 4-word example title a heading (4.2.6 / 4.2.7).
    expect(
      await t.vault.call('heading_reflection', {
        title: '20251021-MCP-Stateless-Sequential-Workflow',
        content_summary: 's',
      }),
    ).toMatchObject({ needs_heading: true });
    expect(
      await t.vault.call('heading_reflection', {
        title: '20251021-MCP-Design',
        content_summary: 's',
        needs_heading: false,
      }),
    ).toMatchObject({ needs_heading: false });
  });

  it('warns, without blocking, when a commit comes without its thinking record', async () => {
    const t = await kernel();
    const draft = (await t.vault.call('commit_draft', { content: 'one two three' })) as {
      status: string;
      warnings: string[];
    };
    expect(draft.status).toBe('draft_completed');
    expect(draft.warnings).toEqual([
      expect.stringMatching(/got no thinking_record_id and its workflow shows no content_thinker step/),
      expect.stringMatching(/got no title/),
    ]);
    const content = (await t.vault.call('commit_content', {
      content: 'x',
      thinking_record_id: 'title_thinker:0123456789ab',
    })) as { warnings: string[] };
    expect(content.warnings[0]).toMatch(/not a record from content_reflection/);
    const heading = (await t.vault.call('commit_heading', {
      heading: 'Short',
      thinking_record_id: 'heading_reflection:0123456789ab',
    })) as { status: string; warnings: string[] };
    expect(heading).toMatchObject({
      status: 'heading_confirmed',
      warnings: [expect.stringMatching(/5 characters; the conventions suggest 40-100/)],
    });
    const start = (await t.vault.call('start_card_generation', { draft_content: 'x', title: 'bad', tags: [] })) as {
      warnings: string[];
    };
    expect(start.warnings).toHaveLength(2);
  });

  it('refuses unknown templates listing the available ones, and save_card on a read-only vault', async () => {
    const t = await kernel();
    const unknown = await failure(t.vault.call('apply_template', { ...CARD_ARGS, template_type: 'nope' }));
    expect(unknown).toMatchObject({
      code: 'not_found',
      details: { available_templates: ['general', 'literature', 'meeting', 'project'] },
    });
    const ro = await kernel({}, { readOnly: true });
    expect((await failure(ro.vault.call('save_card', { formatted_card: 'x', filename: 'x' }))).code).toBe('read_only');
    expect(await ro.vault.call('generate_title', {})).toMatchObject({
      mode: 'first_draft',
      next_action: { tool: 'commit_title' },
    });
  });
});
