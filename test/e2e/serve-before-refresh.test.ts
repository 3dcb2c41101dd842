/**
 * A served vault answers searches and link queries from its last index at once, while the
 * opening refresh catches up with files changed while no server ran (decision 026): the first
 * answers come from the persisted rows, a notice says when they are known to lag, and once the
 * refresh ends the changed file is found by its new words and its new link. A write waits for
 * the refresh, so what it wrote is in the next search.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateLinkedVault, type LinkedNote } from '../support/generate-linked-vault.js';
import { callTool, connectStdio, type StdioSession } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeDir));
});

type SearchBody = { results: Array<{ id: string }>; notice?: string };
type BacklinksBody = { backlinks: Array<{ source_note_id: string }> };

const search = async (session: StdioSession, query: string): Promise<SearchBody> => {
  const answer = await callTool(session.client, 'search_notes', { query, limit: 5 });
  expect(answer.isError).toBe(false);
  return answer.body as SearchBody;
};
const backlinkSources = async (session: StdioSession, id: string): Promise<Set<string>> => {
  const answer = await callTool(session.client, 'get_backlinks', { identifier: id });
  expect(answer.isError).toBe(false);
  return new Set((answer.body as BacklinksBody).backlinks.map((b) => b.source_note_id));
};

describe('serving from the last index while the opening refresh runs', () => {
  it('answers a search and get_backlinks before the refresh ends, then sees the file changed while the server was down', async () => {
    const root = await tempDir('nk-early-');
    dirs.push(root);
    // Large enough that re-reading every file takes the refresh well past the first answers.
    const vault = generateLinkedVault(root, 3000, { hubInbound: 100 });
    const changed = vault.notes[2000] as LinkedNote;
    const file = path.join(root, changed.id);
    fs.appendFileSync(file, '\nMarker oldmarkerword.\n');
    expect((await runCli(['index', '--vault', root, '--profile', 'flint', '--json'])).code).toBe(0);

    // While no server runs: the note's words and links change, and every other file is touched,
    // so the opening refresh re-reads all 3,000 files.
    fs.writeFileSync(
      file,
      fs.readFileSync(file, 'utf8').replace('oldmarkerword', 'newmarkerword') + '\nSee [[Hub Note]].\n',
    );
    const later = new Date(Date.now() + 5000);
    for (const note of vault.notes) if (note !== changed) fs.utimesSync(path.join(root, note.id), later, later);
    const hubBefore = new Set(vault.hubLinks.map((l) => l.source));

    const session = await connectStdio(['serve', '--profile', 'flint', '--vault', root]);
    try {
      // Only the last index still holds the old word: the answer came from it, before the refresh.
      const first = await search(session, 'oldmarkerword');
      expect(first.results.map((r) => r.id)).toEqual([changed.id]);
      expect(await backlinkSources(session, vault.hub.id)).toEqual(hubBefore);
      // By title too: the names come from the link index as it stood, not from the refresh.
      expect(await backlinkSources(session, vault.hub.title)).toEqual(hubBefore);
      expect(session.stderr()).not.toMatch(/"msg":"index ready"/);

      // Polled until the refresh has applied the change; meanwhile answers say the rows lag.
      const notices: string[] = [];
      let found: SearchBody | undefined;
      for (const started = Date.now(); Date.now() - started < 120_000; ) {
        const page = await search(session, 'newmarkerword');
        if (page.notice) notices.push(page.notice);
        if (page.results.length && !page.notice) {
          found = page;
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(found?.results.map((r) => r.id)).toEqual([changed.id]);
      expect(notices.length).toBeGreaterThan(0);
      expect(notices[0]).toMatch(/catching up with \d+ note files changed/);
      expect((await search(session, 'oldmarkerword')).results).toEqual([]);
      expect(session.stderr()).toMatch(/"msg":"index ready"/);
      // The link index caught up in the same pass: the new link is a backlink of the hub.
      expect(await backlinkSources(session, vault.hub.id)).toEqual(new Set([...hubBefore, changed.id]));

      // A write waits for the refresh, and the next search sees what it wrote.
      const created = await callTool(session.client, 'create_note', {
        type: 'general',
        title: 'Written now',
        content: 'writtenmarkerword here',
      });
      expect(created.isError).toBe(false);
      expect((await search(session, 'writtenmarkerword')).results).toHaveLength(1);
    } finally {
      await session.close();
    }
  }, 180_000);

  it('a first build is waited for: a search on a never-indexed vault answers from the whole index', async () => {
    const root = await tempDir('nk-early-cold-');
    dirs.push(root);
    const vault = generateLinkedVault(root, 1200, { hubInbound: 50 });
    const session = await connectStdio(['serve', '--profile', 'flint', '--vault', root]);
    try {
      const last = vault.notes[vault.notes.length - 1] as LinkedNote;
      const page = await search(session, `"${last.title}"`);
      expect(page.results.map((r) => r.id)).toContain(last.id);
      expect(page.notice).toBeUndefined();
      expect(await backlinkSources(session, vault.hub.id)).toEqual(new Set(vault.hubLinks.map((l) => l.source)));
    } finally {
      await session.close();
    }
  }, 120_000);
});
