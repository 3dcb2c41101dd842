/**
 * The obsidian profile end to end: the built CLI served over stdio to the MCP SDK's own client,
 * on a real Obsidian-style vault (nested folders with spaces, unicode, notes without frontmatter,
 * CRLF, a .obsidian/ folder). Every obsidian-tools and agent-preferences tool; files checked byte
 * for byte on disk; tool folders and everything outside the vault untouched. The search index
 * runs with the small deterministic embedder here; model.test.ts runs the real one.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, connectStdio, type StdioSession } from '../../support/mcp.js';
import { OBSIDIAN_NOTES, snapshotTree, TOOL_FOLDER_SECRET, writeObsidianVault } from '../../support/obsidian-vault.js';
import { removeDir, tempDir } from '../../support/temp.js';

const OUTSIDE_SECRET = 'OUTSIDE-SECRET-obs-4410';
let sandbox: string;
let vault: string;
let outside: string;
let session: StdioSession;
let outsideBefore: Map<string, string>;
let toolFoldersBefore: Map<string, string>;

const read = (rel: string): string => fs.readFileSync(path.join(vault, rel), 'utf8');
const ok = async (name: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> => {
  const answer = await callTool(session.client, name, args);
  expect(answer.isError, `${name}: ${JSON.stringify(answer.body)}`).toBe(false);
  return answer.body as Record<string, unknown>;
};
/** A list tool's answer: the bare sorted array as seed 004 returns it (text), `{ result }` in structuredContent. */
const list = async (name: string, args: Record<string, unknown>): Promise<string[]> => {
  const result = await session.client.callTool({ name, arguments: args });
  expect(result.isError ?? false, `${name}: ${JSON.stringify(result.content)}`).toBe(false);
  const text = (result.content as Array<{ type: string; text: string }>)[0]!.text;
  const items = JSON.parse(text) as unknown;
  expect(Array.isArray(items), `${name} answers a bare array: ${text}`).toBe(true);
  expect(result.structuredContent).toEqual({ result: items });
  return items as string[];
};
const refused = async (name: string, args: Record<string, unknown>): Promise<string> => {
  const answer = await callTool(session.client, name, args);
  expect(answer.isError, `${name} ${JSON.stringify(args)} should be refused`).toBe(true);
  return JSON.stringify(answer.body);
};
function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

beforeAll(async () => {
  sandbox = await tempDir('nk-e2e-obsidian-');
  vault = path.join(sandbox, 'My Vault');
  outside = path.join(sandbox, 'outside');
  fs.mkdirSync(vault);
  fs.mkdirSync(outside);
  fs.writeFileSync(path.join(outside, 'secret.md'), `# Secret\n\n${OUTSIDE_SECRET}\n`);
  fs.symlinkSync(outside, path.join(vault, 'linked-out'));
  writeObsidianVault(vault);
  outsideBefore = snapshotTree(outside);
  toolFoldersBefore = new Map(
    [...snapshotTree(vault)].filter(([rel]) => rel.startsWith('.obsidian') || rel.startsWith('.trash')),
  );
  const config = path.join(sandbox, 'obsidian.yaml');
  fs.writeFileSync(
    config,
    'profile: obsidian\nsearch:\n  backend: hybrid-search\n  options: { embedder: hashed, embedThreads: 0 }\n',
  );
  session = await connectStdio(['serve', '--config', config, '--vault', vault], {
    NOTEKERNEL_CONFIG_DIR: path.join(sandbox, 'config'),
  });
}, 60_000);

afterAll(async () => {
  await session?.close();
  await removeDir(sandbox);
});

describe('obsidian profile over MCP stdio', () => {
  it("serves seed 004's tools, and indexes every note of the vault (not .obsidian/ or .trash/)", async () => {
    const names = (await session.client.listTools()).tools.map((t) => t.name).sort();
    for (const name of [
      'search_vault',
      'read_file',
      'list_files_by_frontmatter',
      'update_frontmatter',
      'batch_update_frontmatter',
      'move_file',
      'batch_move_files',
      'create_file',
      'find_backlinks',
      'find_outlinks',
      'search_by_date_range',
      'search_by_folder',
      'log_interaction',
      'save_preference',
      'list_preferences',
      'remove_preference',
    ])
      expect(names).toContain(name);
    expect(names).not.toContain('rename_tag');
    const all = await list('search_by_folder', { folder: '', recursive: true });
    expect(all).toEqual(Object.keys(OBSIDIAN_NOTES).sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(await list('search_by_folder', { folder: 'Projects' })).toEqual(['Projects/Project Alpha.md']);
    expect(await list('search_by_folder', { folder: 'Projects', recursive: true })).toEqual([
      'Projects/Active Work/Big Plan.md',
      'Projects/Project Alpha.md',
    ]);
    expect(await refused('search_by_folder', { folder: 'No Such Folder' })).toContain('No folder');
    // list_tags (the tags plugin) reads frontmatter tags of notes in every folder, none from .obsidian/.
    const tags = JSON.stringify((await ok('list_tags')).tags);
    for (const tag of ['project', 'planning', 'person', 'café']) expect(tags).toContain(`"${tag}"`);
  });

  it('read_file: relative or absolute inside the vault; outside, tool folders and symlinks out refused', async () => {
    const rel = await ok('read_file', { path: 'Résumé Ünïcode/Café Crème.md' });
    expect(rel.content).toBe(OBSIDIAN_NOTES['Résumé Ünïcode/Café Crème.md']);
    const abs = await ok('read_file', { path: path.join(vault, 'Meetings', 'Weekly Sync.md') });
    expect(abs).toEqual({ path: 'Meetings/Weekly Sync.md', content: OBSIDIAN_NOTES['Meetings/Weekly Sync.md'] });
    expect((await ok('read_file', { path: 'root note' })).path).toBe('root note.md');
    for (const hostile of [
      '../outside/secret.md',
      path.join(outside, 'secret.md'),
      'linked-out/secret.md',
      '.obsidian/workspace.md',
      '.obsidian/app.json',
      '.trash/Deleted.md',
      'Projects/../../outside/secret.md',
      '/etc/passwd',
    ]) {
      const body = await refused('read_file', { path: hostile });
      expect(body).not.toContain(OUTSIDE_SECRET);
      expect(body).not.toContain(TOOL_FOLDER_SECRET);
    }
    expect(await refused('read_file', { pth: 'root note.md' })).toContain('did you mean \\"path\\"');
  });

  it('find_outlinks and find_backlinks: by note name, aliases and headings, case-insensitive, tool folders never counted', async () => {
    expect(await list('find_outlinks', { path: 'Meetings/Weekly Sync.md' })).toEqual([
      'Missing Note',
      'Project Alpha',
      'project alpha',
    ]);
    const back = await list('find_backlinks', { note_name: 'project alpha' });
    expect(back).toEqual([
      'Meetings/Weekly Sync.md',
      'People/Ada.md',
      'Projects/Active Work/Big Plan.md',
      'Résumé Ünïcode/Café Crème.md',
    ]);
    expect(await list('find_backlinks', { note_name: '[[Missing Note]]' })).toEqual(['Meetings/Weekly Sync.md']);
  });

  it('list_files_by_frontmatter: contains in lists and text, equals exactly', async () => {
    expect(await list('list_files_by_frontmatter', { field: 'tags', value: 'project' })).toEqual([
      'Projects/Active Work/Big Plan.md',
      'Projects/Project Alpha.md',
    ]);
    expect(await list('list_files_by_frontmatter', { field: 'company', value: 'acme' })).toEqual(['People/Ada.md']);
    expect(await list('list_files_by_frontmatter', { field: 'status', value: 'activ', match_type: 'equals' })).toEqual(
      [],
    );
    expect(await list('list_files_by_frontmatter', { field: 'status', value: 'active', match_type: 'equals' })).toEqual(
      ['Projects/Project Alpha.md'],
    );
    expect(await refused('list_files_by_frontmatter', { field: 'tags', value: 'x', match_type: 'fuzzy' })).toContain(
      'match_type',
    );
  });

  it('update_frontmatter keeps the body byte for byte and untouched keys (their order and text)', async () => {
    const rel = 'Projects/Project Alpha.md';
    await ok('update_frontmatter', { path: rel, field: 'status', value: 'paused' });
    expect(read(rel)).toBe(OBSIDIAN_NOTES[rel]!.replace('status: active', 'status: paused'));
    await ok('update_frontmatter', { path: rel, field: 'tags', value: 'launch', operation: 'append' });
    await ok('update_frontmatter', { path: rel, field: 'tags', value: 'launch', operation: 'append' });
    await ok('update_frontmatter', { path: rel, field: 'reviewers', value: '["Bo", "Cy"]' });
    await ok('update_frontmatter', { path: rel, field: 'owner', operation: 'remove' });
    const text = read(rel);
    expect(text.split('---\n')[1]).toBe(
      '# kept as written\ntags:\n  - project\n  - active\n  - launch\nstatus: paused\nDate: "[[2024-03-01]]"\nreviewers:\n  - Bo\n  - Cy\n',
    );
    expect(text.slice(text.indexOf('\n---\n') + 5)).toBe(
      OBSIDIAN_NOTES[rel]!.slice(OBSIDIAN_NOTES[rel]!.indexOf('\n---\n') + 5),
    );
    // A note without frontmatter gets one; its CRLF body is untouched.
    const sync = 'Meetings/Weekly Sync.md';
    await ok('update_frontmatter', { path: sync, field: 'type', value: 'meeting' });
    expect(read(sync)).toBe(`---\ntype: meeting\n---\n\n${OBSIDIAN_NOTES[sync]}`);
    expect(await list('list_files_by_frontmatter', { field: 'type', value: 'meeting' })).toEqual([sync]);
    // Refusals name the field; nothing is written.
    expect(await refused('update_frontmatter', { path: rel, field: 'nope', operation: 'remove' })).toContain('nope');
    expect(await refused('update_frontmatter', { path: rel, field: 'x' })).toContain('value');
    expect(await refused('update_frontmatter', { path: rel, field: 'x', value: 'y', operation: 'merge' })).toContain(
      'operation',
    );
    expect(await refused('update_frontmatter', { path: '.obsidian/workspace.md', field: 'x', value: 'y' })).toContain(
      '.obsidian',
    );
    expect(await refused('update_frontmatter', { path: '../outside/secret.md', field: 'x', value: 'y' })).toContain(
      'outside',
    );
  });

  it('batch_update_frontmatter goes on after a failure and reports each file', async () => {
    const body = await ok('batch_update_frontmatter', {
      paths: ['People/Ada.md', 'Nope/Missing.md', '../outside/secret.md', 'root note.md'],
      field: 'reviewed',
      value: 'yes',
    });
    expect(body.succeeded).toBe(2);
    expect(body.failed).toBe(2);
    const results = body.results as Array<{ path: string; ok: boolean; error?: { code: string } }>;
    expect(results.map((r) => [r.path, r.ok])).toEqual([
      ['People/Ada.md', true],
      ['Nope/Missing.md', false],
      ['../outside/secret.md', false],
      ['root note.md', true],
    ]);
    expect(read('root note.md')).toBe(`---\nreviewed: 'yes'\n---\n\n${OBSIDIAN_NOTES['root note.md']}`);
    expect(read('People/Ada.md')).toBe(
      '---\ntags: [person]\ncompany: "[[Acme Corp]]"\nreviewed: \'yes\'\n---\n\nAda leads [[Project Alpha]].\n',
    );
  });

  it('create_file: folders made, frontmatter from JSON, never over an existing file, never in a tool folder', async () => {
    const created = await ok('create_file', {
      path: 'Inbox/Ideas 2024/Nouvelle idée',
      content: 'See [[Ada]].\n',
      frontmatter: '{"tags": ["idea"], "status": "draft"}',
    });
    expect(created.path).toBe('Inbox/Ideas 2024/Nouvelle idée.md');
    expect(read('Inbox/Ideas 2024/Nouvelle idée.md')).toBe(
      '---\ntags:\n  - idea\nstatus: draft\n---\n\nSee [[Ada]].\n',
    );
    expect(await list('list_files_by_frontmatter', { field: 'tags', value: 'idea' })).toEqual([
      'Inbox/Ideas 2024/Nouvelle idée.md',
    ]);
    expect(await list('find_backlinks', { note_name: 'Ada' })).toContain('Inbox/Ideas 2024/Nouvelle idée.md');
    expect(await refused('create_file', { path: 'Inbox/Ideas 2024/Nouvelle idée.md', content: 'x' })).toContain(
      'already exists',
    );
    expect(await refused('create_file', { path: 'x.md', frontmatter: '{bad json' })).toContain('frontmatter');
    expect(await refused('create_file', { path: '.obsidian/new.md', content: 'x' })).toContain('.obsidian');
    expect(await refused('create_file', { path: path.join(outside, 'new.md'), content: 'x' })).toContain('outside');
    expect(await refused('create_file', { path: 'linked-out/new.md', content: 'x' })).toContain('outside');
    expect(fs.existsSync(path.join(vault, 'x.md'))).toBe(false);
  });

  it('move_file renames a note and rewrites [[old name]] / [[old name|alias]] links to it, as Obsidian does', async () => {
    const moved = await ok('move_file', {
      source: 'Projects/Project Alpha.md',
      destination: 'Archive/2024/Project Apex.md',
    });
    expect(moved.destination).toBe('Archive/2024/Project Apex.md');
    expect(fs.existsSync(path.join(vault, 'Projects/Project Alpha.md'))).toBe(false);
    expect(read('Meetings/Weekly Sync.md')).toBe(
      '---\ntype: meeting\n---\n\nNotes without frontmatter.\r\n\r\nDiscussed [[Project Apex]] and [[Project Apex|the alpha]] and ![[Project Apex#Goals]].\r\nA [[Missing Note]] too.\r\n',
    );
    expect(read('Projects/Active Work/Big Plan.md')).toBe(
      OBSIDIAN_NOTES['Projects/Active Work/Big Plan.md']!.replace('[[Project Alpha#Goals]]', '[[Project Apex#Goals]]'),
    );
    expect(read('Résumé Ünïcode/Café Crème.md')).toContain('[[Project Apex|α]]');
    // Tool folders are not notes: their links are left as they were.
    expect(read('.obsidian/workspace.md')).toContain('[[Project Alpha]]');
    expect(await list('find_backlinks', { note_name: 'Project Apex' })).toEqual([
      'Meetings/Weekly Sync.md',
      'People/Ada.md',
      'Projects/Active Work/Big Plan.md',
      'Résumé Ünïcode/Café Crème.md',
    ]);
    expect(await list('find_backlinks', { note_name: 'Project Alpha' })).toEqual([]);
    // A folder as destination keeps the file name: "Archive/" (made) or an existing folder.
    expect((await ok('move_file', { source: 'Maps/_Index.md', destination: 'Index Archive/' })).destination).toBe(
      'Index Archive/_Index.md',
    );
    expect((await ok('move_file', { source: 'Index Archive/_Index.md', destination: 'Maps' })).destination).toBe(
      'Maps/_Index.md',
    );
    expect(read('Maps/_Index.md')).toBe(OBSIDIAN_NOTES['Maps/_Index.md']);
    expect(await refused('move_file', { source: 'root note.md', destination: 'People/Ada.md' })).toContain(
      'already exists',
    );
    expect(await refused('move_file', { source: 'root note.md', destination: '.obsidian/root note.md' })).toContain(
      '.obsidian',
    );
    expect(await refused('move_file', { source: 'root note.md', destination: '../outside/root note.md' })).toContain(
      'outside',
    );
    expect(await refused('move_file', { source: 'root note.md', destinaton: 'x.md' })).toContain(
      'did you mean \\"destination\\"',
    );
  });

  it('batch_move_files goes on after a failure and reports each move', async () => {
    const body = await ok('batch_move_files', {
      moves: [
        { source: 'root note.md', destination: 'Notes/Root Note.md' },
        { source: 'Nope.md', destination: 'Notes/Nope.md' },
        { source: 'People/Ada.md', destination: 'People/Ada Lovelace.md' },
      ],
    });
    expect(body.succeeded).toBe(2);
    expect((body.results as Array<{ ok: boolean }>).map((r) => r.ok)).toEqual([true, false, true]);
    expect(read('Archive/2024/Project Apex.md')).toContain('[[Ada Lovelace]]');
    expect(read('Inbox/Ideas 2024/Nouvelle idée.md')).toContain('See [[Ada Lovelace]].');
    expect(await refused('batch_move_files', { moves: [{ source: 'a.md', dest: 'b.md' }] })).toContain('destination');
    // A rename that changes only the case of the name (one file on case-insensitive file systems).
    await ok('move_file', { source: 'People/Ada Lovelace.md', destination: 'People/ADA Lovelace' });
    expect(await list('search_by_folder', { folder: 'People' })).toEqual(['People/ADA Lovelace.md']);
    expect(read('Archive/2024/Project Apex.md')).toContain('[[ADA Lovelace]]');
  });

  it('search_by_date_range: created from the Date field (wikilink dates too), modified from the file', async () => {
    expect(
      await list('search_by_date_range', { start_date: '2024-03-01', end_date: '2024-03-01', date_type: 'created' }),
    ).toEqual(['Archive/2024/Project Apex.md']);
    expect(
      await list('search_by_date_range', { start_date: '2023-11-01', end_date: '2023-11-30', date_type: 'created' }),
    ).toEqual(['Projects/Active Work/Big Plan.md']);
    const modified = await list('search_by_date_range', { start_date: today(), end_date: today() });
    expect(modified.length).toBeGreaterThanOrEqual(7);
    expect(await refused('search_by_date_range', { start_date: '2024-02-30', end_date: '2024-03-01' })).toContain(
      'start_date',
    );
  });

  it("log_interaction appends to today's daily note", async () => {
    await ok('log_interaction', {
      task_description: 'Found launch notes',
      query: 'where is the launch plan?',
      summary: 'It is in Project Apex.',
      files: ['Archive/2024/Project Apex.md'],
    });
    await ok('log_interaction', {
      task_description: 'Chat',
      query: 'hello',
      summary: 'n/a',
      full_response: 'Hello! How can I help?',
    });
    const daily = read(`Daily Notes/${today()}.md`);
    expect(daily).toMatch(
      /^## \d\d:\d\d Found launch notes\n\n- \*\*Query:\*\* where is the launch plan\?\n- \*\*Summary:\*\* It is in Project Apex\.\n- \*\*Files:\*\* \[\[Project Apex\]\]\n\n## \d\d:\d\d Chat\n\n- \*\*Query:\*\* hello\n\nHello! How can I help\?\n$/,
    );
    expect(await list('search_by_folder', { folder: 'Daily Notes' })).toEqual([`Daily Notes/${today()}.md`]);
  });

  it('preferences: save, list, remove in Preferences.md; served as an MCP prompt and resource', async () => {
    await ok('save_preference', { preference: 'Answer in British English' });
    await ok('save_preference', { preference: 'Keep answers short' });
    await ok('save_preference', { preference: 'Cite the note path' });
    expect(read('Preferences.md')).toBe(
      '# Preferences\n\n- Answer in British English\n- Keep answers short\n- Cite the note path\n',
    );
    expect((await ok('remove_preference', { line_number: 2 })).removed).toEqual({
      line_number: 2,
      preference: 'Keep answers short',
    });
    expect((await ok('list_preferences')).preferences).toEqual([
      { line_number: 1, preference: 'Answer in British English' },
      { line_number: 2, preference: 'Cite the note path' },
    ]);
    expect(await refused('remove_preference', { line_number: 5 })).toContain('No preference 5');
    expect(await refused('remove_preference', { line_number: 0 })).toContain('line_number');
    const prompt = await session.client.getPrompt({ name: 'user_preferences' });
    expect(JSON.stringify(prompt.messages)).toContain('- Answer in British English\\n- Cite the note path');
    const resource = await session.client.readResource({ uri: 'notekernel://preferences' });
    expect((resource.contents[0] as { text?: string } | undefined)?.text).toContain('- Cite the note path');
  });

  it('search_vault: hybrid by default, each mode, closest-name refusals', async () => {
    const hybrid = await ok('search_vault', { query: 'zyxquorble' });
    expect(hybrid.mode).toBe('hybrid');
    expect((hybrid.results as Array<{ source: string }>)[0]?.source).toBe('Notes/Root Note.md');
    for (const mode of ['keyword', 'semantic']) {
      const body = await ok('search_vault', { query: 'zyxquorble', mode, n_results: 3 });
      expect((body.results as Array<{ source: string }>)[0]?.source).toBe('Notes/Root Note.md');
    }
    // keyword: notes with every word first, then notes with some of them (seed 004's ranking by words found).
    const some = await ok('search_vault', { query: 'zyxquorble plethoric', mode: 'keyword' });
    expect((some.results as Array<{ source: string }>).map((r) => r.source)).toEqual(['Notes/Root Note.md']);
    const secret = await ok('search_vault', { query: TOOL_FOLDER_SECRET, mode: 'keyword' });
    expect(secret.results).toEqual([]);
    expect(await refused('search_vault', { query: 'x', n_result: 3 })).toContain('did you mean \\"n_results\\"');
    expect(await refused('search_vault', { query: 'x', mode: 'fuzzy' })).toContain('mode');
  });

  it('nothing outside the vault, nor in its tool folders, was read into an answer or written', () => {
    expect(snapshotTree(outside)).toEqual(outsideBefore);
    const toolFolders = new Map(
      [...snapshotTree(vault)].filter(([rel]) => rel.startsWith('.obsidian') || rel.startsWith('.trash')),
    );
    expect(toolFolders).toEqual(toolFoldersBefore);
    expect(fs.readdirSync(sandbox).sort()).toEqual(
      ['My Vault', 'config', 'obsidian.yaml', 'outside'].filter((n) => fs.existsSync(path.join(sandbox, n))),
    );
  });
});
