/**
 * The capability-gated half of the NoteStore contract: optional members exist exactly when
 * their capability is declared, and when declared they behave (typed-notes: move/listTypes; files:
 * contained, compare-and-swap raw file access; watch: external edits are reported).
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect } from 'vitest';
import { CAPABILITY_MEMBERS, type Capability } from '../kernel/backend.js';
import type { ExternalChange } from '../kernel/backend.js';
import type { Note } from '../kernel/note.js';
import {
  declares,
  expectCode,
  expectThrowsCode,
  fileOf,
  removeDir,
  sha256,
  sleep,
  tempDir,
  tempFilesUnder,
  type ContractSubject,
  type ContractTest,
} from './contract-support.js';

const ESCAPES = ['../x', '../../etc/passwd', '/etc/passwd', 'a\u0000b', 'a\\b', 'C:/Windows', 'notes/../../x'];

export function describeOptionalMembersContract(current: () => ContractSubject, test: ContractTest): void {
  const s = () => current().store;
  const has = (capability: Capability) => declares(current().capabilities, capability);
  /** The vault's folder: a backend with capability `files` (or `typed-notes`, kept in folders) has one. */
  const root = (): string => {
    const folder = current().root;
    if (folder === undefined)
      throw new Error('a backend with files or typed-notes must give the contract its folder (subject.root)');
    return folder;
  };
  /** The stored form another program would see, else the content through the store. */
  const stored = async (note: Note): Promise<string> => {
    const outside = current().outside;
    return outside ? (await outside.bytes(note)).toString('base64') : ((await s().get(note.id))?.content ?? '<gone>');
  };

  describe('capability-gated members', () => {
    test('each optional member exists exactly when its capability or extension is declared', async () => {
      const store = s() as unknown as Record<string, unknown>;
      const extensions = current().extensions;
      for (const entry of CAPABILITY_MEMBERS) {
        if (entry.on !== 'store') continue;
        const present = store[entry.member] !== undefined;
        const declared = 'capability' in entry ? has(entry.capability) : extensions?.includes(entry.extension);
        if (declared === undefined) continue;
        const name = 'capability' in entry ? `capability "${entry.capability}"` : `extension "${entry.extension}"`;
        if (entry.presence === 'may') expect(!present || declared, `store.${entry.member} without ${name}`).toBe(true);
        else expect(present, `store.${entry.member} vs ${name}`).toBe(declared);
      }
    });
  });

  describe('capability typed-notes', () => {
    test('create places notes in types; listTypes and count/list by type see them', async ({ skip }) => {
      skip(!has('typed-notes'), 'backend does not declare "typed-notes"');
      const a = await s().create({ title: 'In projects', content: 'p', type: 'projects' });
      const b = await s().create({ title: 'Default type', content: 'd' });
      expect(a.type).toBe('projects');
      expect(b.type).toBeTruthy();
      expect(b.type).not.toBe('projects');
      const types = await s().listTypes!();
      expect(types).toEqual(expect.arrayContaining(['projects', b.type!]));
      expect(await s().count({ type: 'projects' })).toBe(1);
      expect(await s().count({ type: 'no-such-type' })).toBe(0);
      expect((await s().list({ type: 'projects' })).map((n) => n.id)).toEqual([a.id]);
      expect((await s().list({ type: b.type! })).map((n) => n.id)).toEqual([b.id]);
    });

    test('refuses type names that would leave the vault or hide the note', async ({ skip }) => {
      skip(!has('typed-notes'), 'backend does not declare "typed-notes"');
      for (const type of ['../escape', '..', 'a/b', '.hidden', 'x\u0000y', '']) {
        const attempt = s().create({ title: `Bad type ${JSON.stringify(type)}`, content: 'x', type });
        await expect(attempt, JSON.stringify(type)).rejects.toMatchObject({
          code: expect.stringMatching(/^(validation_failed|path_outside_vault)$/),
        });
      }
      expect(await s().count()).toBe(0);
      expect(await fs.readdir(path.dirname(root()))).not.toContain('escape');
    });

    test('move is hash-checked and carries the note to the new type', async ({ skip }) => {
      skip(!has('typed-notes'), 'backend does not declare "typed-notes"');
      const note = await s().create({
        title: 'Mover',
        content: 'moving body\n',
        type: 'inbox',
        tags: ['m'],
        metadata: { k: 1 },
      });
      const newer = await s().update(note.id, { content: 'moving body v2\n' }, note.contentHash);
      const before = await stored(newer);
      await expectCode(s().move!(note.id, 'archive', note.contentHash), 'content_hash_mismatch');
      expect(await stored(newer)).toEqual(before);
      expect(await s().count({ type: 'archive' })).toBe(0);

      const moved = await s().move!(note.id, 'archive', newer.contentHash);
      expect(moved).toMatchObject({ type: 'archive', title: 'Mover', content: 'moving body v2\n', tags: ['m'] });
      expect(moved.metadata.k).toBe(1);
      expect(moved.id).not.toBe(note.id);
      const outside = current().outside;
      if (outside) expect(moved.contentHash).toBe(sha256(await outside.bytes(moved)));
      expect(await s().get(note.id)).toBeUndefined();
      expect((await s().get(moved.id))?.content).toBe('moving body v2\n');
      expect(await s().count({ type: 'inbox' })).toBe(0);
      expect((await s().list({ type: 'archive' })).map((n) => n.id)).toEqual([moved.id]);
      expect(await s().listTypes!()).toContain('archive');
    });

    test('move refuses (conflict) when the target already exists, changing neither note', async ({ skip }) => {
      skip(!has('typed-notes'), 'backend does not declare "typed-notes"');
      const from = await s().create({ title: 'Same name', slug: 'same-name', content: 'from\n', type: 'left' });
      const to = await s().create({ title: 'Same name', slug: 'same-name', content: 'to\n', type: 'right' });
      const [fromBytes, toBytes] = [await stored(from), await stored(to)];
      const result = await s().move!(from.id, 'right', from.contentHash).then(
        (note) => ({ note }),
        (error: unknown) => ({ error }),
      );
      if ('error' in result) {
        expect(result.error).toMatchObject({ code: 'conflict' });
        expect(await stored(from)).toEqual(fromBytes);
        expect((await s().get(from.id))?.content).toBe('from\n');
      } else {
        expect(result.note.id, 'a move either conflicts or lands on its own id').not.toBe(to.id);
      }
      expect(await stored(to)).toEqual(toBytes);
      expect((await s().get(to.id))?.content).toBe('to\n');
    });
  });

  describe('capability files', () => {
    const f = () => s().files!;

    test('readText/writeText round-trip with a sha256 hash; exists, listDir, remove', async ({ skip }) => {
      skip(!has('files'), 'backend does not declare "files"');
      expect(f().root).toBe(root());
      expect(await f().readText('plugin-data/a.txt')).toBeUndefined();
      expect(await f().exists('plugin-data/a.txt')).toBe(false);
      await f().mkdir('plugin-data');
      const text = 'héllo wörld 🎉\nno newline at end';
      const written = await f().writeText('plugin-data/a.txt', text);
      expect(written.contentHash).toBe(sha256(Buffer.from(text, 'utf8')));
      expect(await f().readText('plugin-data/a.txt')).toBe(text);
      expect(await fs.readFile(path.join(root(), 'plugin-data', 'a.txt'), 'utf8')).toBe(text);
      expect(await f().exists('plugin-data/a.txt')).toBe(true);
      expect(await f().listDir('plugin-data')).toEqual([{ name: 'a.txt', isDirectory: false }]);
      expect(f().resolve('plugin-data/a.txt')).toBe(path.join(root(), 'plugin-data', 'a.txt'));
      await f().remove('plugin-data/a.txt');
      expect(await f().readText('plugin-data/a.txt')).toBeUndefined();
    });

    test('writeText with expectedHash is a compare-and-swap', async ({ skip }) => {
      skip(!has('files'), 'backend does not declare "files"');
      await f().mkdir('cas');
      const v1 = await f().writeText('cas/file.md', 'v1\n');
      const v2 = await f().writeText('cas/file.md', 'v2\n', { expectedHash: v1.contentHash });
      expect(await f().readText('cas/file.md')).toBe('v2\n');
      await expectCode(
        f().writeText('cas/file.md', 'v3\n', { expectedHash: v1.contentHash }),
        'content_hash_mismatch',
        {
          current_hash: v2.contentHash,
          provided_hash: v1.contentHash,
        },
      );
      expect(await f().readText('cas/file.md')).toBe('v2\n');
      const racers = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) =>
          f().writeText('cas/file.md', `racer ${i}\n`, { expectedHash: v2.contentHash }),
        ),
      );
      expect(racers.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of racers)
        if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'content_hash_mismatch' });
    });

    test("a note's file read through files hashes to the note's contentHash", async ({ skip }) => {
      skip(!has('files'), 'backend does not declare "files"');
      const note = await s().create({
        title: 'Raw view',
        content: 'ünï\n',
        ...(has('free-metadata') ? { metadata: { a: [1] } } : {}),
      });
      const rel = path.relative(root(), fileOf(root(), note)).split(path.sep).join('/');
      const text = await f().readText(rel);
      expect(sha256(Buffer.from(text!, 'utf8'))).toBe(note.contentHash);
      const rewritten = await f().writeText(rel, text!.replace('ünï', 'changed'), { expectedHash: note.contentHash });
      expect((await s().get(note.id))?.contentHash).toBe(rewritten.contentHash);
    });

    test('resolve, readText and writeText refuse paths outside the vault', async ({ skip }) => {
      skip(!has('files'), 'backend does not declare "files"');
      for (const bad of ESCAPES) {
        expectThrowsCode(() => f().resolve(bad), 'path_outside_vault');
        await expectCode(f().readText(bad), 'path_outside_vault');
        await expectCode(f().writeText(bad, 'x'), 'path_outside_vault');
      }
    });

    test('resolve refuses a symlink that leads outside the vault', async ({ skip }) => {
      skip(!has('files'), 'backend does not declare "files"');
      const outside = await tempDir('nk-outside-');
      try {
        await fs.writeFile(path.join(outside, 'secret.txt'), 'secret');
        await fs.symlink(outside, path.join(root(), 'out-dir'));
        await fs.symlink(path.join(outside, 'secret.txt'), path.join(root(), 'out-file.md'));
        for (const bad of ['out-dir', 'out-dir/secret.txt', 'out-dir/new/deeper.txt', 'out-file.md']) {
          expectThrowsCode(() => f().resolve(bad), 'path_outside_vault');
        }
        await expectCode(f().readText('out-dir/secret.txt'), 'path_outside_vault');
        await expectCode(f().writeText('out-dir/planted.txt', 'x'), 'path_outside_vault');
        await expectCode(f().writeText('out-file.md', 'overwritten'), 'path_outside_vault');
        expect((await fs.readdir(outside)).sort()).toEqual(['secret.txt']);
        expect(await fs.readFile(path.join(outside, 'secret.txt'), 'utf8')).toBe('secret');
        expect(await tempFilesUnder(outside)).toEqual([]);
      } finally {
        await removeDir(outside);
      }
    });

    test('resolve accepts a symlink that stays inside the vault', async ({ skip }) => {
      skip(!has('files'), 'backend does not declare "files"');
      await f().mkdir('real-dir');
      await fs.symlink(path.join(root(), 'real-dir'), path.join(root(), 'alias'));
      await f().writeText('alias/inside.txt', 'inside');
      expect(await fs.readFile(path.join(root(), 'real-dir', 'inside.txt'), 'utf8')).toBe('inside');
    });

    test('resolve refuses a dangling symlink that points outside', async ({ skip }) => {
      skip(!has('files'), 'backend does not declare "files"');
      const outside = await tempDir('nk-outside-');
      try {
        await fs.symlink(path.join(outside, 'not-yet.txt'), path.join(root(), 'dangling.txt'));
        expectThrowsCode(() => f().resolve('dangling.txt'), 'path_outside_vault');
      } finally {
        await removeDir(outside);
      }
    });
  });

  describe('capability watch', () => {
    test('reports a note edited by another program until unsubscribed', async ({ skip }) => {
      skip(!has('watch'), 'backend does not declare "watch"');
      const note = await s().create({ title: 'Watched', content: 'v1\n' });
      const changes: ExternalChange[] = [];
      const unsubscribe = s().watch!((change) => changes.push(change));
      expect(typeof unsubscribe).toBe('function');
      await sleep(200);
      const outside = current().outside;
      if (!outside) throw new Error('a backend with watch must give the contract its outside view');
      await outside.append(note, 'edited outside\n');
      const deadline = Date.now() + 10_000;
      while (!changes.some((c) => c.kind === 'written' && c.note.id === note.id) && Date.now() < deadline)
        await sleep(50);
      unsubscribe();
      const written = changes.find(
        (c): c is Extract<ExternalChange, { kind: 'written' }> => c.kind === 'written' && c.note.id === note.id,
      );
      expect(written?.note.content).toContain('edited outside');
    });
  });
}
