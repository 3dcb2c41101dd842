/**
 * The NoteStore contract every storage backend must pass (after unstorage's `testDriver`):
 * a backend's test file calls `describeNoteStoreContract(name, open)` with a factory that opens
 * a fresh, empty store. Only the NoteStore interface is used, and the subject's `outside` view
 * (another program's: files on disk, a remote service) where the backend gives one: external
 * edits, stored bytes and leftover temp files are checked through it. What needs a capability
 * (metadata and free-form tags need `free-metadata`) runs only where it is declared.
 */
import { afterEach, beforeEach, describe, expect, it, type TestContext } from 'vitest';
import type { Capability } from '../kernel/backend.js';
import type { Metadata, Note } from '../kernel/note.js';
import {
  HASH_FORMAT,
  contractTest,
  declares,
  expectCode,
  sha256,
  tick,
  type OutsideWorld,
  type ContractOptions,
  type ContractSubject,
  type OpenSubject,
} from './contract-support.js';
import { describeOptionalMembersContract } from './note-store-optional.contract.js';
import { describeWritesAndListingContract } from './note-store-writes.contract.js';

export type { ContractOptions, ContractSubject, OpenSubject } from './contract-support.js';

const RICH_METADATA: Metadata = {
  priority: 3,
  ratio: -0.25,
  done: false,
  starred: true,
  nothing: null,
  status: 'in progress',
  numeric_string: '007',
  boolean_string: 'true',
  date_string: '2024-02-29',
  multiline: 'first line\nsecond line\n',
  quoted: 'colon: "quotes" & #hash',
  list: [1, 'two', false, null, { three: 3 }],
  empty_list: [],
  empty_map: {},
  nested: { level: { deeper: { items: ['a', 'b'], count: 2 } }, 'key with spaces': 'ok', ключ: 'значение' },
};

const CONTENTS: Record<string, string> = {
  unicode: 'Ünïcødé 日本語 🎉 e\u0301 zero\u200bwidth\n',
  'no trailing newline': 'last line without newline',
  'several trailing newlines': 'body\n\n\n',
  'leading blank lines': '\n\nafter two blank lines\n',
  'CRLF line endings': 'line one\r\nline two\r\n',
  'looks like frontmatter': '---\ntitle: not metadata\n---\n\nstill content\n',
  'markdown and tabs': '# Heading\n\n- [ ] task\n\t- nested\n\n```ts\nconst x = 1;\n```\n',
  empty: '',
};

export function describeNoteStoreContract(name: string, open: OpenSubject, options: ContractOptions = {}): void {
  const test = contractTest(options);

  describe(`NoteStore contract: ${name}`, () => {
    let subject: ContractSubject;
    const s = () => subject.store;
    const has = (capability: Capability) => declares(subject.capabilities, capability);
    /** The outside view, or the test is skipped for a backend that gives none. */
    const outside = (ctx: TestContext): OutsideWorld => {
      if (!subject.outside) ctx.skip();
      return subject.outside as OutsideWorld;
    };
    /** What another program would see of the note: its stored bytes where visible, else its content through the store. */
    const stored = async (note: Note): Promise<string> =>
      subject.outside
        ? (await subject.outside.bytes(note)).toString('base64')
        : ((await s().get(note.id))?.content ?? '<gone>');

    beforeEach(async () => {
      subject = await open();
    });

    afterEach(async () => {
      // After close: a store may keep a replaced version under a temp name for a moment (fs-sqlite
      // removes it off the write's critical path), but none may outlive the store. Closed
      // first, so the leftovers are read before the subject's own clean-up removes them.
      const leftovers = subject.outside ? () => subject.outside!.leftovers() : async () => [];
      await subject.store.close();
      expect(await leftovers(), 'temp files left behind').toEqual([]);
      await subject.close();
    });

    describe('create and get', () => {
      test('round-trips title, content, tags and metadata', async () => {
        const rich = has('free-metadata');
        const tags = rich ? ['alpha', 'beta gamma', 'ünï'] : ['alpha', 'ünï'];
        const created = await s().create({
          title: 'Round trip',
          content: 'Body\n',
          tags,
          ...(rich ? { metadata: RICH_METADATA } : {}),
        });
        const got = await s().get(created.id);
        expect(got).toBeDefined();
        for (const note of [created, got!]) {
          expect(note.id).toBe(created.id);
          expect(note.title).toBe('Round trip');
          expect(note.content).toBe('Body\n');
          expect(note.tags).toEqual(tags);
          if (rich)
            for (const [key, value] of Object.entries(RICH_METADATA))
              expect(note.metadata[key], `metadata.${key}`).toEqual(value);
        }
        expect(got!.contentHash).toBe(created.contentHash);
      });

      test('without free-metadata, metadata and tags it cannot store are refused, never dropped', async (ctx) => {
        if (has('free-metadata')) ctx.skip();
        await expectCode(s().create({ title: 'Meta', content: 'x', metadata: { priority: 3 } }), 'validation_failed');
        await expectCode(s().create({ title: 'Spaced', content: 'x', tags: ['beta gamma'] }), 'validation_failed');
        expect(await s().count()).toBe(0);
      });

      for (const [label, content] of Object.entries(CONTENTS)) {
        test(`keeps content byte-exact: ${label}`, async () => {
          const created = await s().create({ title: `Content ${label}`, content });
          expect(created.content).toBe(content);
          expect((await s().get(created.id))?.content).toBe(content);
        });
      }

      test('keeps awkward titles exactly', async () => {
        const titles = [
          'Ünïcødé 日本語 🎉',
          'colon: in "quotes" & #hash',
          '123',
          'true',
          'null',
          '  padded  ',
          "it's",
          '- dash',
          '[brackets]',
          '{braces}',
          '*star',
        ];
        for (const [i, title] of titles.entries()) {
          const created = await s().create({ title, content: 'x', slug: `awkward-${i}` });
          expect(created.title, title).toBe(title);
          expect((await s().get(created.id))?.title, title).toBe(title);
        }
      });

      test('a title or metadata value containing a line ending in --- round-trips', async () => {
        const rich = has('free-metadata');
        const created = await s().create({
          title: 'Pros and cons ---',
          content: 'body\n',
          ...(rich ? { metadata: { block: 'one\n---\ntwo' } } : {}),
        });
        const got = await s().get(created.id);
        expect(got?.title).toBe('Pros and cons ---');
        expect(got?.content).toBe('body\n');
        if (rich) expect(got?.metadata.block).toBe('one\n---\ntwo');
      });

      test('returns a sha256 contentHash with timestamps', async () => {
        const created = await s().create({ title: 'Hashed', content: 'hash me\n' });
        expect(created.contentHash).toMatch(HASH_FORMAT);
        expect(Number.isNaN(Date.parse(created.created))).toBe(false);
        expect(Number.isNaN(Date.parse(created.updated))).toBe(false);
      });

      test('the contentHash and size cover the stored bytes', async (ctx) => {
        const out = outside(ctx);
        const created = await s().create({ title: 'Hashed', content: 'hash me\n' });
        const bytes = await out.bytes(created);
        expect(created.contentHash).toBe(sha256(bytes));
        if (created.size !== undefined) expect(created.size).toBe(bytes.length);
      });

      test('file facts, where given, agree: path ends with filename, the listing repeats them', async () => {
        const created = await s().create({ title: 'Relative path', content: 'x' });
        expect(created.path === undefined, 'path and filename come together').toBe(created.filename === undefined);
        if (created.path !== undefined) expect(created.path.endsWith(created.filename!)).toBe(true);
        const [summary] = await s().list();
        expect(summary?.path).toBe(created.path);
        expect(summary?.filename).toBe(created.filename);
      });

      test('returns undefined for a note that does not exist', async () => {
        const note = await s().create({ title: 'Short lived', content: 'x' });
        await s().delete(note.id);
        expect(await s().get(note.id)).toBeUndefined();
      });

      test('refuses to create over an existing note (conflict), never overwriting it', async () => {
        const first = await s().create({ title: 'Twin', slug: 'twin', content: 'original\n' });
        const before = await stored(first);
        const second = await s()
          .create({ title: 'Twin', slug: 'twin', content: 'impostor\n' })
          .then(
            (note) => ({ note }),
            (error: unknown) => ({ error }),
          );
        if ('error' in second) expect(second.error).toMatchObject({ code: 'conflict' });
        else expect(second.note.id, 'a second create either conflicts or gets its own id').not.toBe(first.id);
        expect(await stored(first)).toEqual(before);
        expect((await s().get(first.id))?.content).toBe('original\n');
      });

      test('concurrent creates of one name: one note per id, none overwritten', async () => {
        const results = await Promise.allSettled(
          Array.from({ length: 10 }, (_, i) => s().create({ title: 'Race', slug: 'race', content: `writer ${i}\n` })),
        );
        const won = results
          .filter((r): r is PromiseFulfilledResult<Note> => r.status === 'fulfilled')
          .map((r) => r.value);
        for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'conflict' });
        expect(new Set(won.map((n) => n.id)).size).toBe(won.length);
        expect(won.length).toBeGreaterThanOrEqual(1);
        for (const note of won) expect((await s().get(note.id))?.content).toBe(note.content);
        expect(await s().count()).toBe(won.length);
      });
    });

    describe('update (compare-and-swap on the content hash)', () => {
      test('changes only what is given and keeps created', async () => {
        const rich = has('free-metadata');
        const note = await s().create({
          title: 'Before',
          content: 'old body\n',
          tags: ['t1'],
          ...(rich ? { metadata: { keep: 'me' } } : {}),
        });
        await tick();
        const renamed = await s().update(note.id, { title: 'After' }, note.contentHash);
        expect(renamed).toMatchObject({
          id: note.id,
          title: 'After',
          content: 'old body\n',
          tags: ['t1'],
          created: note.created,
        });
        if (rich) expect(renamed.metadata.keep).toBe('me');
        expect(Date.parse(renamed.updated)).toBeGreaterThanOrEqual(Date.parse(note.updated));
        const rewritten = await s().update(note.id, { content: 'new body' }, renamed.contentHash);
        expect(rewritten).toMatchObject({ title: 'After', content: 'new body', tags: ['t1'] });
        const retagged = await s().update(note.id, { tags: ['t2', 't3'] }, rewritten.contentHash);
        expect(retagged).toMatchObject({ title: 'After', content: 'new body', tags: ['t2', 't3'] });
        expect(await s().get(note.id)).toMatchObject({
          title: 'After',
          content: 'new body',
          tags: ['t2', 't3'],
          contentHash: retagged.contentHash,
        });
      });

      test('metadata given to update is the complete new metadata', async (ctx) => {
        if (!has('free-metadata')) ctx.skip();
        const note = await s().create({ title: 'Meta', content: 'x', metadata: { drop: 1, keep: 'a' } });
        const { drop: _drop, ...rest } = note.metadata;
        const updated = await s().update(
          note.id,
          { metadata: { ...rest, keep: 'b', added: { deep: [true] } } },
          note.contentHash,
        );
        expect(updated.metadata).not.toHaveProperty('drop');
        expect(updated.metadata.keep).toBe('b');
        expect(updated.metadata.added).toEqual({ deep: [true] });
        expect(updated.title).toBe('Meta');
        expect(updated.content).toBe('x');
      });

      test('the hash changes on any change: content, metadata or title alone', async () => {
        const rich = has('free-metadata');
        const note = await s().create({ title: 'Hash', content: 'same\n', ...(rich ? { metadata: { n: 1 } } : {}) });
        const seen = new Set([note.contentHash]);
        const a = await s().update(note.id, { content: 'same!\n' }, note.contentHash);
        const b = rich
          ? await s().update(note.id, { metadata: { ...a.metadata, n: 2 } }, a.contentHash)
          : await s().update(note.id, { tags: ['t2'] }, a.contentHash);
        const c = await s().update(note.id, { title: 'Hash 2' }, b.contentHash);
        for (const next of [a, b, c]) {
          expect(next.contentHash).toMatch(HASH_FORMAT);
          expect(seen.has(next.contentHash), 'hash reused after a change').toBe(false);
          seen.add(next.contentHash);
        }
        if (subject.outside) expect(c.contentHash).toBe(sha256(await subject.outside.bytes(c)));
      });

      test('an edit by another program changes the hash and invalidates the old one', async (ctx) => {
        const out = outside(ctx);
        const note = await s().create({ title: 'Edited outside', content: 'v1\n' });
        await out.append(note, 'appended by an editor\n');
        const got = await s().get(note.id);
        expect(got?.contentHash).not.toBe(note.contentHash);
        expect(got?.contentHash).toBe(sha256(await out.bytes(note)));
        expect(got?.content).toContain('appended by an editor');
        await expectCode(s().update(note.id, { content: 'lost update' }, note.contentHash), 'content_hash_mismatch');
        const updated = await s().update(note.id, { content: 'v2\n' }, got!.contentHash);
        expect(updated.content).toBe('v2\n');
      });

      test('a stale hash is refused with content_hash_mismatch and the file is untouched', async () => {
        const note = await s().create({ title: 'CAS', content: 'v1\n' });
        const v2 = await s().update(note.id, { content: 'v2\n' }, note.contentHash);
        const before = await stored(v2);
        await expectCode(s().update(note.id, { content: 'v3\n' }, note.contentHash), 'content_hash_mismatch', {
          current_hash: v2.contentHash,
          provided_hash: note.contentHash,
        });
        await expectCode(s().update(note.id, { title: 'x' }, `sha256:${'0'.repeat(64)}`), 'content_hash_mismatch');
        expect(await stored(v2)).toEqual(before);
        expect((await s().get(note.id))?.contentHash).toBe(v2.contentHash);
      });

      test('20 concurrent updates with one hash: exactly one wins, readers never see a torn file', async () => {
        const note = await s().create({ title: 'Contended', content: 'start\n' });
        // Readers see the stored bytes where another program could, else the store's own reads.
        const read = async () =>
          subject.outside ? sha256(await subject.outside.bytes(note)) : (await s().get(note.id))!.contentHash;
        const original = await read();
        let done = false;
        const observed = new Set<string>();
        const reader = (async () => {
          while (!done) {
            observed.add(await read());
            await new Promise((r) => setImmediate(r));
          }
        })();
        const results = await Promise.allSettled(
          Array.from({ length: 20 }, (_, i) =>
            s().update(note.id, { content: `writer ${i}\n`.repeat(200) }, note.contentHash),
          ),
        );
        done = true;
        await reader;
        const winners = results.filter((r): r is PromiseFulfilledResult<Note> => r.status === 'fulfilled');
        expect(winners).toHaveLength(1);
        for (const r of results)
          if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'content_hash_mismatch' });
        const final = await s().get(note.id);
        expect(final?.content).toBe(winners[0]!.value.content);
        expect(final?.contentHash).toBe(winners[0]!.value.contentHash);
        for (const hash of observed) expect([original, final!.contentHash]).toContain(hash);
      });

      test('refuses to update a note that does not exist (not_found)', async () => {
        const note = await s().create({ title: 'Gone soon', content: 'x' });
        await s().delete(note.id);
        await expectCode(s().update(note.id, { content: 'y' }, note.contentHash), 'not_found');
        expect(await s().get(note.id)).toBeUndefined();
      });
    });

    describeWritesAndListingContract({ s, outside, seenOutside: () => subject.outside }, test);
    describeOptionalMembersContract(() => subject, test);
  });

  it(`${name}: every declared known failure names a contract test`, () => {
    expect(test.unmatchedKnownFailures()).toEqual([]);
  });
}
