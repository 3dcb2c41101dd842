/**
 * Permission faults met by a process held to the file modes (issue 32): a vault folder it may not write is
 * served read-only without being asked; an index file it may not write leaves every write
 * either refused with nothing changed or done (never both), served from a stand-in index; an
 * unreadable type folder is reported as that by `index`, `list_notes_by_type` and
 * `list_note_types`. Nothing is moved aside as damaged.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callOk, callTool, type StdioSession } from '../support/mcp.js';
import { connectUnprivileged, noUnprivilegedUser, runCliUnprivileged } from '../support/faults.js';
import { runCli } from '../support/run-cli.js';
import { removeDir, tempDir } from '../support/temp.js';

let outer: string;
let env: Record<string, string>;

beforeAll(async () => {
  outer = await tempDir('nk-e2e-perm-');
  env = { HOME: path.join(outer, 'home'), NOTEKERNEL_CONFIG_DIR: path.join(outer, 'home', 'config') };
  fs.mkdirSync(env.NOTEKERNEL_CONFIG_DIR as string, { recursive: true });
});

afterAll(async () => {
  await removeDir(outer);
});

/** A flint vault with a few notes, made by this process (the unprivileged server's user too). */
async function makeVault(name: string, notes: Array<{ type: string; title: string }>): Promise<string> {
  const vault = path.join(outer, name);
  expect((await runCli(['init', vault, '--profile', 'flint'], { env })).code).toBe(0);
  for (const note of notes) {
    const made = await runCli(
      [
        'call',
        'create_note',
        JSON.stringify({ ...note, content: `about ${note.title}` }),
        '--vault',
        vault,
        '--profile',
        'flint',
      ],
      { env },
    );
    expect(made.code, made.stderr).toBe(0);
  }
  return vault;
}

const serve = (vault: string) =>
  connectUnprivileged(['serve', '--profile', 'flint', '--vault', vault, '--log-level', 'warn'], env);

function notesOnDisk(vault: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of fs.readdirSync(vault, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(vault, path.join(entry.parentPath, entry.name));
    // The index, the journal and a replaced version waiting for removal (`.nk-tmp-…-old`): not notes.
    if (!entry.isFile() || rel.startsWith('.') || entry.name.startsWith('.')) continue;
    files.set(rel, fs.readFileSync(path.join(vault, rel), 'utf8'));
  }
  return files;
}

function movedAside(vault: string): string[] {
  return fs.readdirSync(path.join(vault, '.flint-note')).filter((name) => name.includes('.corrupt-'));
}

function chmodTree(dir: string, dirMode: number, fileMode: number): void {
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    fs.chmodSync(path.join(entry.parentPath, entry.name), entry.isDirectory() ? dirMode : fileMode);
  }
  fs.chmodSync(dir, dirMode);
}

/**
 * Creates, updates, renames and deletes, `rounds` times: each answer is checked against the
 * files right after it — refused with nothing changed, or done and on disk.
 */
async function mixedWrites(
  session: StdioSession,
  vault: string,
  rounds: number,
  midway?: () => void,
): Promise<{ done: number; refused: number }> {
  let done = 0;
  let refused = 0;
  for (let i = 0; i < rounds; i++) {
    if (i === Math.floor(rounds / 2)) midway?.();
    const id = `general/mixed-${i}.md`;
    const before = notesOnDisk(vault);
    const step = i % 4;
    let answer;
    if (step === 0 || !before.has(`general/mixed-${i - step}.md`)) {
      answer = await callTool(session.client, 'create_note', {
        type: 'general',
        title: `Mixed ${i}`,
        content: `round ${i}`,
      });
      if (!answer.isError) expect(fs.existsSync(path.join(vault, id))).toBe(true);
    } else {
      const target = `general/mixed-${i - step}.md`;
      const { content_hash } = await callOk<{ content_hash: string }>(session, 'get_note', {
        identifier: target,
        fields: ['content_hash'],
      });
      if (step === 1) {
        answer = await callTool(session.client, 'update_note', {
          identifier: target,
          content: `updated in round ${i}`,
          content_hash,
        });
        if (!answer.isError)
          expect(fs.readFileSync(path.join(vault, target), 'utf8')).toContain(`updated in round ${i}`);
      } else if (step === 2) {
        answer = await callTool(session.client, 'rename_note', {
          identifier: target,
          new_title: `Renamed ${i}`,
          content_hash,
        });
        if (!answer.isError) expect(fs.readFileSync(path.join(vault, target), 'utf8')).toContain(`Renamed ${i}`);
      } else {
        answer = await callTool(session.client, 'delete_note', { identifier: target, confirm: true, content_hash });
        if (!answer.isError) expect(fs.existsSync(path.join(vault, target))).toBe(false);
      }
    }
    if (answer.isError) {
      refused++;
      expect(notesOnDisk(vault), `round ${i}: ${JSON.stringify(answer.body)}`).toEqual(before);
    } else {
      done++;
    }
  }
  return { done, refused };
}

async function listedIds(session: StdioSession, type: string): Promise<string[]> {
  const listed = await callOk<Array<{ id: string }> | { notes: Array<{ id: string }> }>(session, 'list_notes_by_type', {
    type,
  });
  return (Array.isArray(listed) ? listed : listed.notes).map((n) => n.id).sort();
}

function idsOnDisk(vault: string, type: string): string[] {
  return fs
    .readdirSync(path.join(vault, type))
    .filter((f) => f.endsWith('.md') && !f.startsWith('_'))
    .map((f) => `${type}/${f}`)
    .sort();
}

describe.skipIf(noUnprivilegedUser)('permission faults, held to the file modes (issue 32)', () => {
  it('serves a vault it may not write read-only, without being asked', async () => {
    const vault = await makeVault('read-only', [{ type: 'general', title: 'Kept safe' }]);
    const index = path.join(vault, '.flint-note', 'notekernel.db');
    const indexBytes = fs.readFileSync(index);
    chmodTree(vault, 0o555, 0o444);
    const session = await serve(vault);
    try {
      expect(await listedIds(session, 'general')).toContain('general/kept-safe.md');
      const found = await callOk<{ results: Array<{ id: string }> }>(session, 'search_notes', { query: 'kept safe' });
      expect(found.results.map((r) => r.id)).toContain('general/kept-safe.md');
      const write = await callTool(session.client, 'create_note', { type: 'general', title: 'Refused', content: 'x' });
      expect(write.isError).toBe(true);
      expect(write.body).toMatchObject({ error: 'read_only' });
      expect((write.body as { message: string }).message).toMatch(/may not write the vault's folder/);
    } finally {
      await session.close();
      chmodTree(vault, 0o755, 0o644);
    }
    expect(movedAside(vault)).toEqual([]);
    expect(fs.readFileSync(index).equals(indexBytes)).toBe(true);
  });

  it('serves a memory folder it may not write read-only, its search index in memory (agent-memory)', async () => {
    const memory = path.join(outer, 'memory');
    fs.mkdirSync(memory);
    const args = (tool: string, json: object) => [
      'call',
      tool,
      JSON.stringify(json),
      '--vault',
      memory,
      '--profile',
      'agent-memory',
    ];
    expect(
      (await runCli(args('memory_capture', { title: 'Alpha entry', body: 'about the alpha release' }), { env })).code,
    ).toBe(0);
    chmodTree(memory, 0o555, 0o444);
    const session = await connectUnprivileged(
      ['serve', '--profile', 'agent-memory', '--vault', memory, '--log-level', 'warn'],
      env,
    );
    try {
      const found = await callOk<Array<{ title: string }>>(session, 'memory_search', { query: 'alpha release' });
      expect(found.map((e) => e.title)).toContain('Alpha entry');
      const write = await callTool(session.client, 'memory_capture', { title: 'Refused', body: 'x' });
      expect(write.body).toMatchObject({ error: 'read_only', reason: "this user may not write the vault's folder" });
    } finally {
      await session.close();
      chmodTree(memory, 0o755, 0o644);
    }
  });

  it('keeps 50 mixed writes truthful with the index file read-only from the start', async () => {
    const vault = await makeVault('index-read-only', [{ type: 'general', title: 'Seed note' }]);
    const index = path.join(vault, '.flint-note', 'notekernel.db');
    fs.chmodSync(index, 0o444);
    const session = await serve(vault);
    try {
      const first = await callOk<{ notices?: string[] }>(session, 'search_notes', { query: 'seed' });
      expect(first.notices?.join(' ')).toMatch(/index file: .*notekernel\.db.*temporary index/);
      const { done } = await mixedWrites(session, vault, 50);
      // The index is a stand-in, the files can be written: every write is done.
      expect(done).toBe(50);
      expect(await listedIds(session, 'general')).toEqual(idsOnDisk(vault, 'general'));
    } finally {
      await session.close();
    }
    expect(movedAside(vault)).toEqual([]);
    const doctor = await runCliUnprivileged(['doctor', '--vault', vault, '--profile', 'flint', '--json'], env);
    const report = JSON.parse(doctor.stdout) as {
      ok: boolean;
      findings: Array<{ check: string; ok: boolean; detail: string; fix?: string }>;
    };
    expect(report.ok).toBe(false);
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        check: 'fault',
        ok: false,
        detail: expect.stringMatching(/^index file: read_only: .flint-note\/notekernel\.db/),
      }),
    );
  });

  it('keeps 50 mixed writes truthful when the index file is made read-only while serving', async () => {
    const vault = await makeVault('index-read-only-later', [{ type: 'general', title: 'Seed note' }]);
    const index = path.join(vault, '.flint-note', 'notekernel.db');
    const session = await serve(vault);
    try {
      const { done, refused } = await mixedWrites(session, vault, 50, () => fs.chmodSync(index, 0o444));
      expect(done + refused).toBe(50);
      expect(await listedIds(session, 'general')).toEqual(idsOnDisk(vault, 'general'));
    } finally {
      await session.close();
    }
    expect(movedAside(vault)).toEqual([]);
  });

  it('reports an unreadable type folder as that, and lists the other types', async () => {
    const vault = await makeVault('unreadable-type', [
      { type: 'archive', title: 'Secret plan' },
      { type: 'general', title: 'Open note' },
    ]);
    fs.chmodSync(path.join(vault, 'archive'), 0o000);
    try {
      const indexed = await runCliUnprivileged(['index', '--vault', vault, '--profile', 'flint'], env);
      expect(indexed.stdout + indexed.stderr).toMatch(/archive\/.*unreadable folder/s);
      const session = await serve(vault);
      try {
        const listed = await callTool(session.client, 'list_notes_by_type', { type: 'archive' });
        expect(listed.isError).toBe(true);
        expect(listed.body).toMatchObject({ error: 'permission_denied', path: 'archive/' });
        const types = await callOk<Array<{ name: string; unreadable?: string }>>(session, 'list_note_types', {});
        expect(types.map((t) => t.name)).toEqual(expect.arrayContaining(['general', 'archive']));
        expect(types.find((t) => t.name === 'archive')?.unreadable).toMatch(/permission_denied/);
        expect(types.find((t) => t.name === 'general')?.unreadable).toBeUndefined();
        expect(await listedIds(session, 'general')).toContain('general/open-note.md');
      } finally {
        await session.close();
      }
    } finally {
      fs.chmodSync(path.join(vault, 'archive'), 0o755);
    }
  });
});
