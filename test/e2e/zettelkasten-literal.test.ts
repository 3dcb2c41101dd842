/**
 * Seed 001 called exactly as it writes its calls (issue 31, decision 040): the SDK's Client on the
 * built `notekernel serve --profile zettelkasten`, every call carrying only the parameters the
 * seed's § 5 lists — no next_action.arguments copied, no workflow_id — and every value taken from
 * the seed's own examples. The argument-less generators and `commit_title(title)` find the stage,
 * the text to revise and the feedback in the workflow record the earlier steps left in the vault.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, type StdioSession } from '../support/mcp.js';
import { withoutTime } from './zettelkasten/fixtures.js';
import { createHarness } from './zettelkasten/harness.js';
import {
  CONTENT_FEEDBACK,
  CONTENT_SUMMARY,
  DRAFT,
  HEADING,
  KEY_POINTS,
  REVISED,
  seedCaller,
  TAGS,
  TITLE_1,
  TITLE_2,
  TITLE_FEEDBACK,
  type SeedStep,
} from './zettelkasten/seed.js';

const { sandbox, serve, cleanup } = createHarness();
afterAll(cleanup);

const lengthAdvice = /^The title is 4[24] characters long; the naming convention suggests 20-40\. Accepted/;

describe("zettelkasten: a session driven exactly as seed 001's workflow section (§ 4) writes it", () => {
  let vault: string;
  let session: StdioSession;
  beforeAll(async () => {
    vault = await sandbox('nk-zk-literal-');
    session = await serve(['--profile', 'zettelkasten', '--vault', vault]);
  });

  it('stage 1 and stage 2 with every regeneration, no next_action.arguments copied, produce the card', async () => {
    const steps: SeedStep[] = [];
    const call = seedCaller(session.client, steps);
    const since = Date.now();

    // 4.1 Stage 1
    expect(await call('start_draft_generation', { topic: 'MCP' })).toMatchObject({
      status: 'workflow_started',
      topic: 'MCP',
      next_action: { tool: 'title_thinker' },
    });
    expect(
      await call('title_thinker', {
        context_summary: 'User provided summary of a discussion on tool-driven MCP workflows.',
      }),
    ).toMatchObject({
      thinking_recorded: true,
      next_action: { tool: 'generate_title' },
    });
    const title = await call('generate_title');
    expect(title).toMatchObject({ mode: 'first_draft', stage: 'draft', next_action: { tool: 'commit_title' } });
    expect(title.embedded_prompt).toContain('You are generating a Zettelkasten card title.');
    expect(title.embedded_prompt).toContain(
      'Based on your earlier thinking ("User provided summary of a discussion on tool-driven MCP workflows.")',
    );
    expect(title.examples).toEqual(['20251021-MCP-Tool-Driven-Design', '20251021-State-Machine-Patterns-in-Workflows']);
    // 4.1.4: the seed's own 44-character title is confirmed, the 20-40 length being advice.
    expect(await call('commit_title', { title: TITLE_1 })).toMatchObject({
      status: 'title_confirmed',
      title: TITLE_1,
      next_action: { tool: 'content_thinker' },
    });
    expect(await call('content_thinker', { title: TITLE_1, key_points: KEY_POINTS })).toMatchObject({
      next_action: { tool: 'generate_content' },
    });
    const content = await call('generate_content');
    expect(content).toMatchObject({
      mode: 'first_draft',
      confirmed_title: TITLE_1,
      key_points_reminder: KEY_POINTS,
      next_action: { tool: 'commit_draft' },
    });
    expect(content.embedded_prompt).toContain(`You are generating draft content for the card titled '${TITLE_1}'.`);
    expect(content.embedded_prompt).toContain('- Point 2');
    expect(await call('commit_draft', { content: DRAFT })).toMatchObject({
      status: 'draft_completed',
      draft: { title: TITLE_1, content: DRAFT, word_count: DRAFT.split(/\s+/).length },
      next_stage: 'card_generation',
    });

    // 4.2 Stage 2
    expect(await call('start_card_generation', { draft_content: DRAFT, title: TITLE_1, tags: TAGS })).toMatchObject({
      status: 'card_generation_started',
      received: { title: TITLE_1, tags: TAGS },
      next_action: { tool: 'title_reflection' },
    });
    expect(await call('title_reflection', { original_title: TITLE_1, user_feedback: TITLE_FEEDBACK })).toMatchObject({
      needs_modification: true,
      next_action: { tool: 'generate_title' },
    });
    const retitle = await call('generate_title');
    expect(retitle).toMatchObject({ stage: 'card', mode: 'revision', next_action: { tool: 'commit_title' } });
    expect(retitle.embedded_prompt).toContain(
      `Regenerate the card title based on user feedback.\n\nOriginal title: ${TITLE_1}\nFeedback: ${TITLE_FEEDBACK}`,
    );
    expect(await call('commit_title', { title: TITLE_2 })).toMatchObject({
      status: 'title_confirmed',
      title: TITLE_2,
      next_action: { tool: 'content_reflection' },
    });
    expect(
      await call('content_reflection', { original_content: DRAFT, user_feedback: CONTENT_FEEDBACK }),
    ).toMatchObject({ needs_modification: true, next_action: { tool: 'generate_content' } });
    const recontent = await call('generate_content');
    expect(recontent).toMatchObject({ stage: 'card', mode: 'revision', next_action: { tool: 'commit_content' } });
    expect(recontent.embedded_prompt).toContain(
      `Regenerate the content based on user feedback.\n\nOriginal content: ${DRAFT}\nFeedback: ${CONTENT_FEEDBACK}`,
    );
    expect(await call('commit_content', { content: REVISED })).toMatchObject({
      status: 'content_confirmed',
      content_length: REVISED.split(/\s+/).length,
      next_action: { tool: 'heading_reflection' },
    });
    expect(await call('heading_reflection', { title: TITLE_2, content_summary: CONTENT_SUMMARY })).toMatchObject({
      needs_heading: true,
      next_action: { tool: 'generate_heading' },
    });
    const heading = await call('generate_heading');
    expect(heading.embedded_prompt).toContain(`Card title: ${TITLE_2}\nContent summary: ${CONTENT_SUMMARY}`);
    expect(heading.next_action).toMatchObject({ tool: 'commit_heading' });
    expect(await call('commit_heading', { heading: HEADING })).toMatchObject({
      status: 'heading_confirmed',
      heading: HEADING,
      next_action: { tool: 'template_selector' },
    });
    expect(await call('template_selector', { title: TITLE_2, tags: TAGS })).toMatchObject({
      recommended: 'general',
      next_action: { tool: 'apply_template' },
    });
    const formatted = await call('apply_template', {
      title: TITLE_2,
      content: REVISED,
      heading: HEADING,
      template_type: 'general',
      tags: TAGS,
    });
    expect(formatted.next_action).toMatchObject({ tool: 'save_card' });
    const saved = await call('save_card', { formatted_card: formatted.formatted_card, filename: `${TITLE_2}.md` });
    expect(saved).toMatchObject({
      status: 'saved',
      created: true,
      filepath: path.join(vault, `${TITLE_2}.md`),
      note_id: `${TITLE_2}.md`,
    });

    // The seed's chain, step by step, and no warning but the two length notes.
    expect(steps.map((s) => s.tool)).toEqual([
      'start_draft_generation',
      'title_thinker',
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
    for (const step of steps) {
      if (step.tool === 'commit_title')
        expect(step.body.warnings, step.tool).toEqual([expect.stringMatching(lengthAdvice)]);
      else expect(step.body.warnings, step.tool).toBeUndefined();
    }
    const card = await fs.readFile(path.join(vault, `${TITLE_2}.md`), 'utf8');
    expect(card).toBe(formatted.formatted_card);
    const [first, ...rest] = REVISED.split('\n\n');
    expect(withoutTime(card, since)).toContain(
      `title: ${TITLE_2}\ntags: [MCP, WorkflowDesign]\ncreated: <TIME>\n---\n\n# ${HEADING}\n\n## Core Concept\n\n${first}\n\n## Detailed Explanation\n\n${rest.join('\n\n')}\n`,
    );

    // Saved, the workflow is closed: an argument-less call starts from scratch again.
    expect(await call('generate_title')).toMatchObject({ stage: 'draft', mode: 'first_draft' });
  });

  it("§ 8 message flow: no feedback (user_feedback=null), a heading for the short title, the seed's filename", async () => {
    const call = seedCaller(session.client);
    const stage1Title = '20251021-MCP-Tool-Driven-Workflow';
    await call('start_draft_generation', { topic: 'MCP workflow design' });
    await call('title_thinker', { context_summary: 'Discussion covered...' });
    expect((await call('generate_title')).next_action).toMatchObject({ tool: 'commit_title' });
    expect((await call('commit_title', { title: stage1Title })).next_action).toMatchObject({ tool: 'content_thinker' });
    await call('content_thinker', { title: stage1Title, key_points: ['next_action chaining'] });
    expect((await call('generate_content')).next_action).toMatchObject({ tool: 'commit_draft' });
    expect(await call('commit_draft', { content: DRAFT })).toMatchObject({
      status: 'draft_completed',
      draft: { title: stage1Title },
    });

    const tags = ['#SoftwareEngineering', '#MCP'];
    await call('start_card_generation', { draft_content: DRAFT, title: stage1Title, tags });
    expect(await call('title_reflection', { original_title: stage1Title, user_feedback: null })).toMatchObject({
      needs_modification: false,
      next_action: { tool: 'content_reflection' },
    });
    expect(await call('content_reflection', { original_content: DRAFT, user_feedback: null })).toMatchObject({
      needs_modification: false,
      next_action: { tool: 'heading_reflection' },
    });
    expect(
      await call('heading_reflection', {
        title: stage1Title,
        content_summary: 'Tool answers chain a stateless workflow.',
      }),
    ).toMatchObject({ needs_heading: true });
    const prompt = await call('generate_heading');
    expect(prompt.embedded_prompt).toContain(
      `Card title: ${stage1Title}\nContent summary: Tool answers chain a stateless workflow.`,
    );
    const heading = 'MCP: Implementing Stateless Workflows Through Tool-Returned Instructions';
    expect((await call('commit_heading', { heading })).next_action).toMatchObject({ tool: 'template_selector' });
    const template = (await call('template_selector', { title: stage1Title, tags })).recommended as string;
    const formatted = await call('apply_template', {
      title: stage1Title,
      content: DRAFT,
      heading,
      template_type: template,
      tags,
    });
    const saved = await call('save_card', {
      formatted_card: formatted.formatted_card,
      filename: '20251021-MCP-Stateless-Workflow.md',
    });
    expect(saved).toMatchObject({ status: 'saved', filepath: path.join(vault, '20251021-MCP-Stateless-Workflow.md') });
    expect(await fs.readFile(path.join(vault, '20251021-MCP-Stateless-Workflow.md'), 'utf8')).toContain(
      `# ${heading}\n`,
    );
  });
});

describe('zettelkasten: why defaulting to the workflow record is safe (decision 040)', () => {
  it('two servers on one vault, a restart mid-workflow, and explicit arguments that still win', async () => {
    const vault = await sandbox('nk-zk-literal-two-');
    const aSession = await serve(['--profile', 'zettelkasten', '--vault', vault]);
    const a = seedCaller(aSession.client);
    const bSession = await serve(['--profile', 'zettelkasten', '--vault', vault]);
    const b = seedCaller(bSession.client);
    const [titleA, titleB] = ['20251021-Stateless-Tool-Chains', '20251021-Embedded-Prompt-Design'];

    // Interleaved: each server's argument-less calls find its own workflow, not the latest one.
    await a('start_card_generation', { draft_content: 'Draft A.', title: titleA, tags: ['#a'] });
    await b('start_card_generation', { draft_content: 'Draft B.', title: titleB, tags: ['#b'] });
    await a('title_reflection', { original_title: titleA, user_feedback: 'feedback for A' });
    await b('title_reflection', { original_title: titleB, user_feedback: 'feedback for B' });
    const [promptA, promptB] = [
      (await a('generate_title')).embedded_prompt,
      (await b('generate_title')).embedded_prompt,
    ];
    expect(promptA).toContain(`Original title: ${titleA}\nFeedback: feedback for A`);
    expect(promptB).toContain(`Original title: ${titleB}\nFeedback: feedback for B`);
    expect((await b('commit_title', { title: '20251021-Embedded-Prompt-Designs' })).next_action).toMatchObject({
      tool: 'content_reflection',
    });
    await b('content_reflection', { original_content: 'Draft B.', user_feedback: 'longer' });
    expect((await b('generate_content')).embedded_prompt).toContain('Original content: Draft B.\nFeedback: longer');

    // A's server stops mid-workflow (a client restart); a new one continues A's workflow from the
    // vault, and says which workflow it took.
    await aSession.close();
    const restarted = await serve(['--profile', 'zettelkasten', '--vault', vault]);
    await b('reset_workflow'); // B gives up its card: only A's workflow is open now
    const again = seedCaller(restarted.client);
    const continued = await again('generate_title');
    expect(continued.embedded_prompt).toContain(`Original title: ${titleA}\nFeedback: feedback for A`);
    expect(continued.warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^Continuing workflow \\S+ found in the vault \\(stage card, last step title_reflection, \\d+ min ago, title "${titleA}"\\)`,
        ),
      ),
    ]);
    expect((await again('commit_title', { title: '20251021-Stateless-Tool-Chaining' })).next_action).toMatchObject({
      tool: 'content_reflection',
    });

    // What a call states itself wins over the record (next_action.arguments remain honoured).
    const explicit = (
      await callTool(restarted.client, 'generate_title', {
        stage: 'card',
        original_title: 'Given-Title',
        user_feedback: 'given feedback',
      })
    ).body as { embedded_prompt: string };
    expect(explicit.embedded_prompt).toContain('Original title: Given-Title\nFeedback: given feedback');
    const draft = (await callTool(restarted.client, 'generate_content', { stage: 'draft', title: 'Named' })).body as {
      next_action: { tool: string };
      confirmed_title: string;
    };
    expect(draft).toMatchObject({ confirmed_title: 'Named', next_action: { tool: 'commit_draft' } });
    // The records are bookkeeping beside the notes: hidden, never cards, never indexed.
    const notes = (await fs.readdir(vault)).filter((f) => f.endsWith('.md'));
    expect(notes).toEqual([]);
    expect((await fs.readdir(path.join(vault, '.notekernel', 'card-workflow'))).some((f) => f.endsWith('.json'))).toBe(
      true,
    );
  });
});
