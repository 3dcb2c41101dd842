/**
 * kill -9 of a real `serve` at 20 points during a journalled operation — a rename with 200
 * inbound links (flint), a memory_rename with 100 (agent-memory), a 500-note batch create, a
 * type migration moving 200 linked notes (delete_note_type's migrate), the undo of a 200-link
 * rename (an undo is journalled too) —
 * then a restart: every note is wholly in its before or its after state (file by file against
 * both), the set as a whole is one or the other, no temp file is a note, no id is on two files,
 * the index and the links agree with the files, and a recovery is logged. Half the points are
 * points seen in the journal's own files (test/support/journal-crash-preload.cjs: after the plan,
 * after k notes, before the close), half a timer spread over the operation's measured duration.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callTool } from '../support/mcp.js';
import { runCli } from '../support/run-cli.js';
import { flintState, readFiles, removeCrashVaults, runScenario } from './journal-crash/harness.js';

afterAll(removeCrashVaults);

const LINKERS = 200;

describe('kill -9 during journalled operations', () => {
  it('a rename with 200 inbound links: every note wholly before or after, links agree', async () => {
    let hash = '';
    await runScenario(
      'rename',
      {
        async seed(root) {
          const notes = [
            { title: 'Hub', content: 'The hub.\n' },
            ...Array.from({ length: LINKERS }, (_, i) => ({
              title: `Linker ${i}`,
              content: `Note ${i} points to [[Hub]] and [[Hub|the hub]].\n`,
            })),
          ];
          const made = await runCli([
            'call',
            'create_note',
            JSON.stringify({ notes }),
            '--profile',
            'flint',
            '--vault',
            root,
            '--json',
          ]);
          expect(made.code, made.stderr).toBe(0);
          const hub = await runCli([
            'call',
            'get_note',
            JSON.stringify({ identifier: 'general/hub.md' }),
            '--profile',
            'flint',
            '--vault',
            root,
            '--json',
          ]);
          hash = (JSON.parse(hub.stdout) as { content_hash: string }).content_hash;
        },
        probe: 'list_note_types',
        serveArgs: (root) => ['serve', '--profile', 'flint', '--vault', root],
        run: (session) =>
          session.client.callTool({
            name: 'rename_note',
            arguments: { identifier: 'general/hub.md', new_title: 'Central Hub', content_hash: hash },
          }),
        states: (root) => new Map([...readFiles(root)].map(([rel, text]) => [rel, flintState(text)])),
        async checkServed(session, wholly) {
          const title = wholly === 'after' ? 'Central Hub' : 'Hub';
          const hub = (await callTool(session.client, 'get_note', { identifier: 'general/hub.md' })).body as {
            title: string;
          };
          expect(hub.title).toBe(title);
          const backlinks = (await callTool(session.client, 'get_backlinks', { identifier: 'general/hub.md' }))
            .body as { backlinks: unknown[] };
          expect(backlinks.backlinks.length).toBe(LINKERS * 2);
          const broken = (await callTool(session.client, 'find_broken_links', {})).body as { count: number };
          expect(broken.count).toBe(0);
          const found = (await callTool(session.client, 'search_notes', { query: `"${title}"`, limit: 5 }))
            .body as unknown;
          expect(JSON.stringify(found)).toContain('general/hub.md');
        },
      },
      ['0', '1', '100', '199', 'end'],
    );
  }, 600_000);

  it('a memory_rename with 100 inbound links: one file per id, every entry wholly before or after', async () => {
    const ids = Array.from({ length: 100 }, (_, i) => `id__E${String(i).padStart(4, '0').replace(/0/g, 'z')}x`);
    const idOf = (rel: string) => /id__\w{6}/.exec(rel)?.[0] ?? rel;
    await runScenario(
      'memory',
      {
        async seed(root) {
          fs.writeFileSync(
            path.join(root, 'target-entry id__Targ11.md'),
            '# Target entry\n\nthe entry everyone links to\n',
          );
          ids.forEach((id, i) =>
            fs.writeFileSync(
              path.join(root, `entry-${i} ${id}.md`),
              `# Entry ${i}\n\nsee [[id__Targ11|Target entry]] and [[id__Targ11|my own words]]\n`,
            ),
          );
        },
        probe: 'memory_orphans',
        serveArgs: (root) => ['serve', '--profile', 'agent-memory', '--vault', root],
        run: (session) =>
          session.client.callTool({
            name: 'memory_rename',
            arguments: { id: 'id__Targ11', new_title: 'Renamed target' },
          }),
        states(root) {
          const byId = new Map<string, string>();
          for (const [rel, text] of readFiles(root)) {
            const id = idOf(rel);
            // An id on two files is never one state: it shows as both texts joined.
            byId.set(id, byId.has(id) ? `${byId.get(id)}\n<also>\n${rel}:${text}` : `${rel}:${text}`);
          }
          return byId;
        },
        async checkServed(session, wholly) {
          const doctor = (await callTool(session.client, 'memory_doctor', {})).body;
          expect((doctor as { duplicateIds: unknown[]; ok: boolean }).duplicateIds).toEqual([]);
          expect((doctor as { ok: boolean }).ok).toBe(true);
          const links = (await callTool(session.client, 'memory_links', { id: 'id__Targ11' })).body as {
            inbound: unknown[];
          };
          expect(links.inbound.length).toBe(100);
          const read = (await callTool(session.client, 'memory_read', { id: 'id__Targ11' })).body as { title: string };
          expect(read.title).toBe(wholly === 'after' ? 'Renamed target' : 'Target entry');
        },
      },
      ['0', '1', '50', 'end'],
    );
  }, 600_000);

  it('a 500-note batch create: all notes or none, each complete, listed once', async () => {
    const notes = Array.from({ length: 500 }, (_, i) => ({
      type: 'general',
      title: `Batch note ${i}`,
      content: `body ${i}\n`.repeat(50),
    }));
    await runScenario(
      'batch',
      {
        async seed(root) {
          const made = await runCli([
            'call',
            'create_note',
            JSON.stringify({ title: 'Seed', content: 'seed\n' }),
            '--profile',
            'flint',
            '--vault',
            root,
            '--json',
          ]);
          expect(made.code, made.stderr).toBe(0);
        },
        probe: 'list_note_types',
        serveArgs: (root) => ['serve', '--profile', 'flint', '--vault', root],
        run: (session) => session.client.callTool({ name: 'create_note', arguments: { notes } }),
        states: (root) => new Map([...readFiles(root)].map(([rel, text]) => [rel, flintState(text)])),
        async checkServed(session, wholly) {
          const types = (await callTool(session.client, 'list_note_types', {})).body as Array<{
            name: string;
            noteCount: number;
          }>;
          expect(types.find((t) => t.name === 'general')?.noteCount).toBe(wholly === 'after' ? 501 : 1);
        },
      },
      ['0', '1', '250', '499', 'end'],
    );
  }, 600_000);

  it('a type migration of 200 linked notes: each note in exactly one type folder, wholly before or after, links agree', async () => {
    const MIGRATED = 200;
    const cli = async (tool: string, args: unknown, root: string) => {
      const done = await runCli(['call', tool, JSON.stringify(args), '--profile', 'flint', '--vault', root, '--json']);
      expect(done.code, done.stderr).toBe(0);
    };
    await runScenario(
      'migrate',
      {
        async seed(root) {
          await cli('create_note_type', { type_name: 'drafts', description: 'drafts' }, root);
          await cli('create_note_type', { type_name: 'archive', description: 'the archive' }, root);
          const notes = Array.from({ length: MIGRATED }, (_, i) => ({
            type: 'drafts',
            title: `Draft ${i}`,
            content: `Draft ${i} follows [[Draft ${(i + 1) % MIGRATED}]].\n`,
          }));
          await cli('create_note', { notes }, root);
        },
        probe: 'list_note_types',
        serveArgs: (root) => ['serve', '--profile', 'flint', '--vault', root],
        run: (session) =>
          session.client.callTool({
            name: 'delete_note_type',
            arguments: { type_name: 'drafts', action: 'migrate', target_type: 'archive', confirm: true },
          }),
        states(root) {
          // Keyed by filename: a note in both folders (a move cut short) is never one state.
          const byName = new Map<string, string>();
          for (const [rel, text] of readFiles(root)) {
            const name = path.basename(rel);
            if (name === '_description.md') continue; // the type's own file goes after the journalled moves
            const state = `${path.dirname(rel)}:${flintState(text)}`;
            byName.set(name, byName.has(name) ? `${byName.get(name)}\n<also>\n${state}` : state);
          }
          return byName;
        },
        async checkServed(session, wholly) {
          const types = (await callTool(session.client, 'list_note_types', {})).body as Array<{
            name: string;
            noteCount: number;
          }>;
          const [from, to] = wholly === 'after' ? ['drafts', 'archive'] : ['archive', 'drafts'];
          expect(types.find((t) => t.name === to)?.noteCount).toBe(MIGRATED);
          expect(types.find((t) => t.name === from)?.noteCount ?? 0).toBe(0);
          const backlinks = (await callTool(session.client, 'get_backlinks', { identifier: `${to}/draft-7.md` }))
            .body as { backlinks: unknown[] };
          expect(backlinks.backlinks.length).toBe(1);
          const broken = (await callTool(session.client, 'find_broken_links', {})).body as { count: number };
          expect(broken.count, `${wholly} ${JSON.stringify(broken)}`).toBe(0);
        },
      },
      ['0', '1', '100', '199', 'end'],
    );
  }, 600_000);

  it('the undo of a 200-link rename: every note wholly renamed or wholly put back, links agree', async () => {
    let operationId = '';
    await runScenario(
      'undo',
      {
        async seed(root) {
          const cli = async (tool: string, args: unknown) => {
            const done = await runCli([
              'call',
              tool,
              JSON.stringify(args),
              '--profile',
              'flint',
              '--vault',
              root,
              '--json',
            ]);
            expect(done.code, done.stderr).toBe(0);
            return JSON.parse(done.stdout) as Record<string, unknown>;
          };
          await cli('create_note', {
            notes: [
              { title: 'Hub', content: 'The hub.\n' },
              ...Array.from({ length: LINKERS }, (_, i) => ({
                title: `Linker ${i}`,
                content: `Note ${i} points to [[Hub]].\n`,
              })),
            ],
          });
          const hub = await cli('get_note', { identifier: 'general/hub.md' });
          operationId = (
            await cli('rename_note', {
              identifier: 'general/hub.md',
              new_title: 'Central Hub',
              content_hash: hub.content_hash,
            })
          ).operation_id as string;
          expect(operationId).toBeTruthy();
        },
        probe: 'list_note_types',
        serveArgs: (root) => ['serve', '--profile', 'flint', '--vault', root],
        run: (session) => session.client.callTool({ name: 'undo_operation', arguments: { operation_id: operationId } }),
        states: (root) => new Map([...readFiles(root)].map(([rel, text]) => [rel, flintState(text)])),
        async checkServed(session, wholly) {
          const title = wholly === 'after' ? 'Hub' : 'Central Hub';
          const hub = (await callTool(session.client, 'get_note', { identifier: 'general/hub.md' })).body as {
            title: string;
          };
          expect(hub.title).toBe(title);
          const broken = (await callTool(session.client, 'find_broken_links', {})).body as { count: number };
          expect(broken.count).toBe(0);
          const listed = (await callTool(session.client, 'list_operations', {})).body as {
            operations: Array<{ id: string; state: string }>;
          };
          // Finished (at once or at the restart), the undo leaves the rename undone; rolled back, done.
          expect(listed.operations.find((o) => o.id === operationId)?.state).toBe(
            wholly === 'after' ? 'undone' : 'done',
          );
        },
      },
      ['0', '1', '100', '199', 'end'],
    );
  }, 600_000);
});
