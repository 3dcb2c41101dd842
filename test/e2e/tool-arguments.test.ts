/**
 * One argument rule for every tool, through the real MCP client: unknown names are refused
 * with the closest valid one, and the spellings agents send where the seeds leave them open
 * are accepted (numeric strings, one string for a list, a limit above the maximum is clamped).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { removeDir, tempDir } from '../support/temp.js';

let vault: string;
let session: StdioSession;

beforeAll(async () => {
  vault = await tempDir('nk-e2e-args-');
  session = await connectStdio(['serve', '--profile', 'flint', '--vault', vault]);
  await callTool(session.client, 'create_note', { title: 'Alpha', content: 'alpha body' });
});
afterAll(async () => {
  await session?.close();
  if (vault) await removeDir(vault);
});

describe('tool arguments', () => {
  it('refuses an unknown argument naming the closest valid one', async () => {
    const answer = await callTool(session.client, 'get_note', { identifier: 'general/alpha.md', feilds: ['title'] });
    expect(answer.isError).toBe(true);
    expect(answer.body).toMatchObject({ error: 'validation_failed', field: 'feilds', suggestion: 'fields' });
    expect((answer.body as { message: string }).message).toContain('did you mean "fields"');
  });

  it('keeps open objects open: metadata takes any key', async () => {
    const answer = await callTool(session.client, 'create_note', {
      title: 'Beta',
      content: 'b',
      metadata: { anything: 1, status: 'x' },
    });
    expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
  });

  it('accepts vault_id on any tool (the router reads it)', async () => {
    const answer = await callTool(session.client, 'search_notes', { query: 'alpha', vault_id: path.basename(vault) });
    expect(answer.isError).toBe(false);
  });

  it('accepts a numeric string for a number', async () => {
    const answer = await callTool(session.client, 'search_notes', { query: 'alpha', limit: '5' });
    expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
  });

  it('clamps a limit above the maximum, with has_more and a notice', async () => {
    const simple = await callTool(session.client, 'search_notes', { query: '', limit: 5000 });
    expect(simple.isError, JSON.stringify(simple.body)).toBe(false);
    expect(simple.body).toMatchObject({ has_more: false, notices: [expect.stringMatching(/above the maximum \d+/)] });
    const advanced = await callTool(session.client, 'search_notes_advanced', { limit: 5000 });
    expect(advanced.isError, JSON.stringify(advanced.body)).toBe(false);
    expect(advanced.body).toMatchObject({ has_more: false, notices: [expect.stringMatching(/above the maximum \d+/)] });
  });

  it('create_note_type takes agent_instructions as one string', async () => {
    const answer = await callTool(session.client, 'create_note_type', {
      type_name: 'meetings',
      description: 'Meeting notes',
      agent_instructions: 'Always list attendees',
    });
    expect(answer.isError, JSON.stringify(answer.body)).toBe(false);
    const info = await callTool(session.client, 'get_note_type_info', { type_name: 'meetings' });
    expect(JSON.stringify(info.body)).toContain('Always list attendees');
  });
});
