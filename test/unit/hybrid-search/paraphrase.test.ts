/**
 * The paraphrase vault (test/support/paraphrase-vault.ts) with the hashed embedder: its questions
 * share no content word with their notes, and each note's planted unique token ranks it first by
 * keyword and by hybrid. How well the real model (USE-lite) finds the paraphrased notes, that it
 * loads with no network request, and that worker threads agree with the main thread is measured
 * by the bench (test/bench/paraphrase.ts) and served end to end by test/e2e/obsidian/model.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HybridSearchIndex } from '../../../backends/hybrid-search/hybrid-index.js';
import type { Note } from '../../../kernel/index.js';
import { parseQuery, questionTerms } from '../../../toolkit/search/query.js';
import { hashedEmbedder } from '../../../toolkit/embedding/hashed-embedder.js';
import { paraphraseCases, paraphraseNotes } from '../../support/paraphrase-vault.js';

const contentWords = (text: string) => questionTerms(parseQuery(text))?.flatMap((t) => t.words) ?? [];

const cases = paraphraseCases();
const notes: Note[] = paraphraseNotes(cases);

describe('the paraphrase vault', () => {
  let index: HybridSearchIndex;

  beforeAll(async () => {
    index = new HybridSearchIndex({ file: ':memory:', embedder: hashedEmbedder() });
    for (const note of notes) await index.upsert(note);
    await index.finishBackground();
  });

  afterAll(async () => {
    await index?.close();
  });

  it('the questions share no content word with their notes', () => {
    expect(cases.length).toBeGreaterThanOrEqual(30);
    const shared = cases
      .map((c) => {
        const noteWords = new Set(contentWords(`${c.title} ${c.content}`));
        return { question: c.question, words: contentWords(c.question).filter((w) => noteWords.has(w)) };
      })
      .filter((c) => c.words.length);
    expect(shared).toEqual([]);
  });

  it('a planted unique token ranks its note first by keyword and by hybrid', async () => {
    for (const [i, c] of cases.entries()) {
      for (const mode of ['keyword', 'hybrid'] as const) {
        const page = await index.search({ text: c.token, limit: 5, mode });
        expect(page.hits[0]?.id, `${mode} ${c.token}`).toBe(notes[i]!.id);
        expect(page.hits[0]?.snippet).toContain(`<mark>${c.token}</mark>`);
      }
    }
  });
});
