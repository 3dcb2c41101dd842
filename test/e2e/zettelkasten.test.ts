/**
 * The zettelkasten profile end to end: the SDK's Client spawns the built
 * `notekernel serve --profile zettelkasten` and an agent simulator that follows only
 * `next_action` walks seed 001's chain to a saved card. Real files, real SQLite, nothing mocked.
 * Path safety, per-user configs and bad input are in zettelkasten-users-and-refusals.test.ts.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, type StdioSession } from '../support/mcp.js';
import { runAgent, type NextAction } from './zettelkasten/agent.js';
import {
  branchScript,
  DRAFT,
  EDITED_DRAFT,
  expectedGeneral,
  HEADING,
  meetingScript,
  P1,
  P2,
  P3,
  REVISED,
  STAGE_1,
  straightScript,
  withoutTime,
} from './zettelkasten/fixtures.js';
import { createHarness } from './zettelkasten/harness.js';

const { sandbox, serve, cleanup } = createHarness();
afterAll(cleanup);

describe('zettelkasten: an agent that follows only next_action (no config: shipped defaults)', () => {
  let vault: string;
  let session: StdioSession;

  beforeAll(async () => {
    vault = await sandbox('nk-zk-e2e-');
    session = await serve(['--profile', 'zettelkasten', '--vault', vault]);
  });

  it('lists the 19 seed tools and find_cards, each with described fields and annotations', async () => {
    const { tools } = await session.client.listTools();
    expect(tools).toHaveLength(20);
    expect(tools.map((t) => t.name)).toContain('find_cards');
    for (const tool of tools) {
      expect(tool.annotations?.readOnlyHint ?? false, tool.name).toBe(tool.name !== 'save_card');
      for (const [field, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${field}`).toBeTruthy();
      }
    }
  });

  it('stage 1 and stage 2 without regeneration: the seed chain, and the card on disk is the template output', async () => {
    const since = Date.now();
    const run = await runAgent(session.client, straightScript);
    expect(run.calls).toEqual([
      ...STAGE_1,
      'start_card_generation',
      'title_reflection',
      'content_reflection',
      'heading_reflection',
      'template_selector',
      'apply_template',
      'save_card',
    ]);
    for (const step of run.steps)
      expect(step.body.warnings, `${step.tool} warns although next_action was followed`).toBeUndefined();

    const generate = run.steps.find((s) => s.tool === 'generate_title')?.body;
    expect(generate).toMatchObject({
      mode: 'first_draft',
      stage: 'draft',
      examples: expect.arrayContaining(['20251021-MCP-Tool-Driven-Design']),
    });
    expect(generate?.embedded_prompt).toContain('You are generating a Zettelkasten card title');
    expect(generate?.embedded_prompt).toContain(straightScript.contextSummary);
    expect(generate?.naming_conventions).toContain('Card naming conventions');
    const content = run.steps.find((s) => s.tool === 'generate_content')?.body;
    expect(content).toMatchObject({
      confirmed_title: '20251021-Stateless-Tool-Chain-By-Design',
      key_points_reminder: straightScript.keyPoints,
    });
    expect(content?.embedded_prompt).toContain('Length: 300-800 words');
    const draft = run.steps.find((s) => s.tool === 'commit_draft')?.body;
    expect(draft).toMatchObject({
      status: 'draft_completed',
      next_stage: 'card_generation',
      draft: { word_count: DRAFT.split(/\s+/).length },
    });
    expect((draft!.next_action as NextAction).wait_for_user).toBe(true);
    expect(run.steps.find((s) => s.tool === 'template_selector')?.body).toMatchObject({
      recommended: 'general',
      confidence: 0.85,
      available_templates: ['general', 'literature', 'meeting', 'project'],
    });

    expect(run.saved).toMatchObject({
      status: 'saved',
      created: true,
      backup_created: false,
      note_id: '20251021-Stateless-Tool-Chain-By-Design.md',
    });
    const file = path.join(vault, '20251021-Stateless-Tool-Chain-By-Design.md');
    expect(run.saved.filepath).toBe(file);
    const onDisk = await fs.readFile(file, 'utf8');
    expect(onDisk).toBe(run.memory.card);
    const title = '20251021-Stateless-Tool-Chain-By-Design';
    expect(withoutTime(onDisk, since)).toBe(expectedGeneral(title, '[MCP, WorkflowDesign]', title, [P1, P2, P3]));
  });

  it('every optional branch: rejected title, then title, content and heading regenerated', async () => {
    const since = Date.now();
    const run = await runAgent(session.client, branchScript);
    expect(run.calls).toEqual([
      'start_draft_generation',
      'title_thinker',
      'generate_title',
      'commit_title',
      'generate_title',
      'commit_title',
      'content_thinker',
      'generate_content',
      'commit_draft',
      'start_card_generation',
      'title_reflection',
      'generate_title',
      'commit_title',
      'content_reflection',
      'generate_content',
      'commit_content',
      'heading_reflection',
      'generate_heading',
      'commit_heading',
      'template_selector',
      'apply_template',
      'save_card',
    ]);
    for (const step of run.steps) expect(step.body.warnings, step.tool).toBeUndefined();

    const rejected = run.steps[3]?.body;
    expect(rejected).toMatchObject({ status: 'title_rejected', next_action: { tool: 'generate_title' } });
    // The length is advice (seed 001 confirms its own 42- and 44-character titles): only the format refuses.
    expect((rejected!.violations as Array<{ rule: string; example: string }>).map((v) => v.rule)).toEqual(['format']);
    expect((rejected!.violations as Array<{ example: string }>)[0]?.example).toBe('20251021-MCP-Tool-Driven-Design');
    expect(run.steps[4]?.body).toMatchObject({ mode: 'revision', stage: 'draft' });

    const [titleRevision, contentRevision] = [run.steps[11]?.body, run.steps[14]?.body];
    expect(titleRevision).toMatchObject({ stage: 'card', mode: 'revision' });
    expect(titleRevision?.embedded_prompt).toContain('Regenerate the card title based on user feedback');
    expect(titleRevision?.embedded_prompt).toContain('Feedback: Emphasise the action chaining');
    expect(run.steps[12]?.body).toMatchObject({
      status: 'title_confirmed',
      next_action: { tool: 'content_reflection' },
    });
    expect(contentRevision?.embedded_prompt).toContain('Regenerate the content based on user feedback');
    expect(contentRevision?.embedded_prompt).toContain(EDITED_DRAFT);
    expect(run.steps[16]?.body).toMatchObject({ needs_heading: true });
    expect(run.steps[17]?.body.embedded_prompt).toContain('Length: 40-100 characters');

    const title = '20251021-Stateless-Action-Chaining';
    expect(run.saved).toMatchObject({ status: 'saved', filename: `${title}.md`, created: true });
    const onDisk = await fs.readFile(path.join(vault, `${title}.md`), 'utf8');
    expect(onDisk).toBe(run.memory.card);
    const [r1, ...rest] = REVISED.split('\n\n');
    expect(withoutTime(onDisk, since)).toBe(
      expectedGeneral(title, '[MCP, WorkflowDesign]', HEADING, [r1 as string, ...rest]),
    );
  });

  it('keeps no session state: two agents interleaved on one server each get their own card', async () => {
    const since = Date.now();
    const again = { ...straightScript, draftTitles: ['20251022-Stateless-Tool-Chain-By-Design'] };
    const [meeting, plain] = await Promise.all([
      runAgent(session.client, meetingScript),
      runAgent(session.client, again),
    ]);
    expect(meeting.calls).toContain('generate_heading');
    expect(meeting.steps.find((s) => s.tool === 'template_selector')?.body).toMatchObject({
      recommended: 'meeting',
      confidence: 0.9,
    });
    const card = await fs.readFile(path.join(vault, '20251021-Weekly-Sync-Decisions.md'), 'utf8');
    expect(withoutTime(card, since)).toBe(
      '---\ntitle: 20251021-Weekly-Sync-Decisions\ntags: [Meeting, Team]\ncreated: <TIME>\ntype: meeting\n---\n\n' +
        `# ${meetingScript.heading}\n\n## Summary\n\nWe agreed to ship on Friday.\n\n## Discussion\n\nAnna owns the release notes.\n\n## Decisions\n\n## Action Items\n`,
    );
    expect(plain.saved).toMatchObject({ filename: '20251022-Stateless-Tool-Chain-By-Design.md', created: true });
  });

  it('saving again keeps the old card as .backup; commit_title without its thinker warns but answers', async () => {
    const title = '20251021-Stateless-Tool-Chain-By-Design';
    const before = await fs.readFile(path.join(vault, `${title}.md`), 'utf8');
    const saved = await callTool(session.client, 'save_card', { formatted_card: '# changed\n', filename: title });
    expect(saved.body).toMatchObject({
      status: 'saved',
      created: false,
      backup_created: true,
      backup_path: path.join(vault, `${title}.md.backup`),
    });
    expect(await fs.readFile(path.join(vault, `${title}.md.backup`), 'utf8')).toBe(before);

    const bare = await callTool(session.client, 'commit_title', { title });
    expect(bare).toMatchObject({
      isError: false,
      body: { status: 'title_confirmed', next_action: { tool: 'content_thinker' } },
    });
    expect((bare.body as { warnings: string[] }).warnings[0]).toMatch(
      /got no thinking_record_id and its workflow shows no title_thinker step/,
    );
  });

  it('find_cards finds saved cards by words and reads one whole', async () => {
    const found = await callTool(session.client, 'find_cards', { query: 'stateless design' });
    const cards = (found.body as { cards: Array<{ filename: string }> }).cards;
    expect(cards.map((c) => c.filename)).toContain('20251021-Stateless-Tool-Chain-By-Design.md');
    const read = await callTool(session.client, 'find_cards', { filename: '20251021-Stateless-Tool-Chain-By-Design' });
    expect(read.body).toMatchObject({
      filename: '20251021-Stateless-Tool-Chain-By-Design.md',
      content: expect.any(String),
    });
    expect((await callTool(session.client, 'find_cards', { filename: 'nope' })).body).toMatchObject({
      error: 'not_found',
    });
  });

  it('next_action toward heading_reflection carries the title and a content summary', async () => {
    const content =
      'Stateless tools pass context along. Every answer names the next call. A third sentence is left out.';
    const reflected = await callTool(session.client, 'content_reflection', {
      original_content: content,
      title: 'Stateless Tools',
    });
    expect(reflected.body).toMatchObject({
      next_action: {
        tool: 'heading_reflection',
        arguments: {
          title: 'Stateless Tools',
          content_summary: 'Stateless tools pass context along. Every answer names the next call.',
        },
      },
    });
    const committed = await callTool(session.client, 'commit_content', { content, title: 'Stateless Tools' });
    expect(committed.body).toMatchObject({
      next_action: {
        tool: 'heading_reflection',
        arguments: { title: 'Stateless Tools', content_summary: expect.any(String) },
      },
    });
    const args = (reflected.body as { next_action: { arguments: Record<string, unknown> } }).next_action.arguments;
    expect((await callTool(session.client, 'heading_reflection', args)).isError).toBe(false);
  });
});
