/**
 * The links plugin's part of a store's index pass (decision 026): a first build fills empty
 * link tables in bulk and leaves them whole, so the reconcile after it lists nothing; a pass
 * over part of a vault never claims that.
 */
import { describe, expect, it } from 'vitest';
import type { NoteStore } from '../../../kernel/backend.js';
import type { Note } from '../../../kernel/note.js';
import { silentLogger } from '../../../kernel/logger.js';
import { LinkIndexer } from '../../../plugins/links/indexer.js';
import { NameIndex } from '../../../plugins/links/names.js';
import { linksIndexPass } from '../../../plugins/links/index-pass.js';
import { PASS_WHOLE, reconcile } from '../../../plugins/links/reconcile.js';
import { createMemoryLinkStore } from '../../../plugins/links/store/memory.js';
import { useFlint, writeNoteFile } from './helpers.js';

const flint = useFlint();

async function vaultOf(count: number) {
  const { vault, root } = await flint();
  // Each note links to the next one, which the pass reads after it: resolved only at the pass's end.
  for (let i = 0; i < count; i++)
    await writeNoteFile(root, `general/n${i}.md`, `N${i}`, `see [[N${i + 1}]] and [[Nowhere]]`);
  await vault.notes.store.refresh!();
  const store = vault.notes.store;
  const ids = (await store.list()).map((s) => s.id).sort();
  const notes = (await Promise.all(ids.map((id) => store.get(id)))).filter((n): n is Note => n !== undefined);
  return { store, notes };
}

/** A pass over `links` (fresh in-memory tables by default), as a process that just started would run it. */
function passOver(links = createMemoryLinkStore()) {
  const indexer = new LinkIndexer(links, new NameIndex());
  return { indexer, pass: linksIndexPass(indexer, silentLogger(), () => undefined) };
}

/** The store, counting its listings. */
function counting(store: NoteStore): { store: NoteStore; lists: () => number } {
  let lists = 0;
  const wrapped = new Proxy(store, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown;
      if (prop === 'list') return (...args: Parameters<NoteStore['list']>) => (lists++, target.list(...args));
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
  return { store: wrapped, lists: () => lists };
}

describe('the links part of an index pass', () => {
  it('a first build resolves links to notes read after them, and the reconcile after it lists nothing', async () => {
    const { store, notes } = await vaultOf(30);
    const { indexer, pass } = passOver();
    await pass.begin?.({ first: true });
    for (let i = 0; i < notes.length; i += 7) await pass.batch(notes.slice(i, i + 7), []);
    await pass.end(true);
    expect(indexer.links.meta(PASS_WHOLE)).toBe('1');
    // n29 links to N30, which does not exist; every other [[N…]] resolves; [[Nowhere]] never does.
    expect(
      indexer.links
        .broken()
        .map((l) => l.target_key)
        .sort(),
    ).toEqual([...Array(30).fill('nowhere'), 'n30'].sort());

    const counted = counting(store);
    const report = await reconcile(indexer, counted.store, silentLogger());
    expect(report).toMatchObject({ scanned: notes.length, extracted: 0, complete: true });
    expect(counted.lists()).toBe(0);
    expect(indexer.links.meta(PASS_WHOLE)).toBeUndefined();
    expect(indexer.names.resolveKey('n12').target).toBe('general/n12.md');
  });

  it('a pass over part of the vault leaves the reconcile to extract the rest', async () => {
    const { store, notes } = await vaultOf(12);
    const { indexer, pass } = passOver();
    await pass.begin?.({ first: false });
    await pass.batch(notes.slice(0, 5), []);
    await pass.end(true);
    expect(indexer.links.meta(PASS_WHOLE)).toBeUndefined();
    const report = await reconcile(indexer, store, silentLogger());
    // The vault also holds flint's own notes besides the twelve.
    expect(report).toMatchObject({ scanned: notes.length, extracted: notes.length - 5, complete: true });
    expect(
      indexer.links
        .broken()
        .filter((l) => l.target_key !== 'nowhere')
        .map((l) => l.target_key),
    ).toEqual(['n12']);
  });

  it('a first build cut short, or a later pass, does not claim a whole index', async () => {
    const { notes } = await vaultOf(6);
    const { indexer, pass } = passOver();
    await pass.begin?.({ first: true });
    await pass.batch(notes.slice(0, 3), []);
    await pass.end(false);
    expect(indexer.links.meta(PASS_WHOLE)).toBeUndefined();

    const { indexer: whole, pass: first } = passOver();
    await first.begin?.({ first: true });
    await first.batch(notes, []);
    await first.end(true);
    expect(whole.links.meta(PASS_WHOLE)).toBe('1');
    await first.begin?.({ first: false });
    await first.batch(notes.slice(0, 1), []);
    expect(whole.links.meta(PASS_WHOLE)).toBeUndefined();
  });

  it('a pass after one killed before its end re-resolves what the killed one stored unresolved', async () => {
    const { notes } = await vaultOf(30);
    const links = createMemoryLinkStore();
    const killed = passOver(links).pass;
    await killed.begin?.({ first: true });
    await killed.batch(notes.slice(0, 10), []);
    await killed.batch(notes.slice(10, 20), []);
    // Killed here. The next open's pass reads only the files the killed one never reached.
    const next = passOver(links).pass;
    await next.begin?.({ first: false });
    await next.batch(notes.slice(20), []);
    await next.end(true);
    expect(
      links
        .broken()
        .map((l) => l.target_key)
        .sort(),
    ).toEqual([...Array(30).fill('nowhere'), 'n30'].sort());
  });
});
