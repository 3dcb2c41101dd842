/** `regex: true`: matches, order, snippets, filters, bad patterns, and the time budget. */
import { beforeAll, describe, expect, it } from 'vitest';
import { compilePattern } from '../../../backends/fs-sqlite/search-regex.js';
import { ids, openSearchVault, type SearchVault } from './helpers.js';

let v: SearchVault;

beforeAll(async () => {
  v = await openSearchVault({
    'general/a.md': {
      title: 'Invoices',
      body: 'INV-2024-001 paid\nINV-2024-002 open\nINV-2024-003 open',
      updated: '2024-01-01T00:00:00.000Z',
    },
    'general/b.md': { title: 'Single', body: 'see INV-2023-999 for details', updated: '2024-02-01T00:00:00.000Z' },
    'work/c.md': {
      title: 'TODO list',
      body: 'nothing numbered here\n' + 'a'.repeat(5000),
      updated: '2024-03-01T00:00:00.000Z',
    },
  });
});

describe('regex search', () => {
  it('finds matches in content and title, most matches first, the match marked', async () => {
    const page = await v.search.search({ text: 'INV-\\d{4}-\\d{3}', regex: true, limit: 10 });
    expect(ids(page)).toEqual(['general/a.md', 'general/b.md']);
    expect(page.total).toBe(2);
    expect(page.hits[0]?.score).toBe(3);
    expect(page.hits[1]?.snippet).toBe('see <mark>INV-2023-999</mark> for details');
    expect(ids(await v.search.search({ text: '^todo', regex: true, limit: 10 }))).toEqual(['work/c.md']);
  });

  it('is case-insensitive and line-based by default; /source/flags chooses', async () => {
    expect(ids(await v.search.search({ text: 'inv-2024-002 open$', regex: true, limit: 10 }))).toEqual([
      'general/a.md',
    ]);
    expect(ids(await v.search.search({ text: '/inv-2024/', regex: true, limit: 10 }))).toEqual([]);
    expect(ids(await v.search.search({ text: '/inv-2024/i', regex: true, limit: 10 }))).toEqual(['general/a.md']);
  });

  it('combines with type and paging', async () => {
    expect(ids(await v.search.search({ text: 'INV', regex: true, type: 'work', limit: 10 }))).toEqual([]);
    const second = await v.search.search({ text: 'INV', regex: true, limit: 1, offset: 1 });
    expect(ids(second)).toEqual(['general/b.md']);
    expect(second.total).toBe(2);
  });

  it('an invalid pattern fails at once, naming it', async () => {
    await expect(v.search.search({ text: 'INV-(\\d+', regex: true, limit: 10 })).rejects.toMatchObject({
      code: 'validation_failed',
      details: { field: 'text', pattern: 'INV-(\\d+' },
    });
    await expect(v.search.search({ text: 'x'.repeat(501), regex: true, limit: 10 })).rejects.toMatchObject({
      details: { field: 'text' },
    });
  });

  it('catastrophic backtracking is stopped by the time budget, and search keeps working', async () => {
    // A backreference keeps V8 on its backtracking engine: (a+)+ over 5,000 a's then a mismatch never ends,
    // so only the budget can end it (how soon after: test/bench/time-bounds.ts).
    await expect(v.search.search({ text: '(a+)+\\1b', regex: true, limit: 10, timeoutMs: 500 })).rejects.toMatchObject({
      code: 'timeout',
    });
    expect(ids(await v.search.search({ text: 'numbered', regex: true, limit: 10 }))).toEqual(['work/c.md']);
  });
});

describe('compilePattern', () => {
  it('uses unicode mode when the pattern allows it, and falls back when not', () => {
    expect(compilePattern('\\p{L}+')).toEqual({ source: '\\p{L}+', flags: 'imu' });
    expect(compilePattern('a{')).toEqual({ source: 'a{', flags: 'im' });
    expect(compilePattern('/x/gy')).toEqual({ source: 'x', flags: '' });
  });
});
