import { describe, expect, it } from 'vitest';
import type { NotekernelError } from '../../../kernel/errors.js';
import {
  conceptWords,
  datePrefix,
  parseConventions,
  titleAdvice,
  validateTitle,
} from '../../../plugins/card-workflow/conventions.js';

const defaults = parseConventions('', 'inline.md');

function configFailure(text: string): NotekernelError {
  try {
    parseConventions(text, '/cfg/conventions.md');
  } catch (err) {
    return err as NotekernelError;
  }
  throw new Error('expected a failure');
}

describe('naming conventions', () => {
  it('defaults to the seed convention: YYYYMMDD-CoreConcept, 20-40 characters', () => {
    expect(defaults.rules.title).toMatchObject({
      format: 'YYYYMMDD-CoreConcept',
      date_prefix: 'YYYYMMDD',
      separator: '-',
      min_length: 20,
      max_length: 40,
    });
    expect(defaults.rules.content).toEqual({ min_words: 300, max_words: 800 });
    expect(validateTitle(defaults, '20251021-MCP-Tool-Driven-Design')).toEqual([]);
    expect(validateTitle(defaults, '  20251021-Über-Zettel-Methode  ')).toEqual([]);
  });

  it('names each broken rule with an example', () => {
    const rules = (title: string) => validateTitle(defaults, title).map((v) => v.rule);
    expect(rules('MCP Tool Driven Design Notes')).toEqual(['format']);
    expect(rules('20251399-MCP-Tool-Driven-Design')).toEqual(['date']);
    expect(rules('20251021-MCP Tool Driven Design')).toEqual(['core_concept']);
    expect(rules('20251021-MCP--Tool-Driven-Design')).toEqual(['core_concept']);
    expect(rules('MCP')).toEqual(['format']);
    const strict = parseConventions('---\ntitle:\n  length_check: reject\n---\n', 'strict.md');
    expect(validateTitle(strict, 'MCP').map((v) => v.rule)).toEqual(['format', 'length']);
    expect(validateTitle(strict, '20251021-MCP-Tool-Driven-Sequential-Workflow-Design').map((v) => v.rule)).toEqual([
      'length',
    ]);
    const [violation] = validateTitle(strict, '20251021-MCP');
    expect(violation).toEqual({
      rule: 'length',
      message: 'The title is 12 characters long; the convention asks for 20-40.',
      example: '20251021-MCP-Tool-Driven-Design',
    });
  });

  it("accepts seed 001's own example titles: the 20-40 length is advice by default (length_check: warn)", () => {
    // The seed confirms these (4.1.4, 4.2.3) and shows the second in its prompt's examples.
    for (const title of [
      '20251021-MCP-Tool-Driven-Sequential-Workflow',
      '20251021-MCP-Stateless-Sequential-Workflow',
      '20251021-State-Machine-Patterns-in-Workflows',
    ]) {
      expect(validateTitle(defaults, title), title).toEqual([]);
      expect(titleAdvice(defaults, title)[0], title).toMatch(
        /^The title is 4[24] characters long; the naming convention suggests 20-40\. Accepted/,
      );
    }
    expect(titleAdvice(defaults, '20251021-MCP-Tool-Driven-Design')).toEqual([]);
    expect(validateTitle(defaults, '20251021-MCP')).toEqual([]);
    expect(defaults.rules.title.examples).toEqual([
      '20251021-MCP-Tool-Driven-Design',
      '20251021-State-Machine-Patterns-in-Workflows',
    ]);
  });

  it('a prose-only conventions file replaces the built-in rules with what its prose states', () => {
    const iso = parseConventions(
      '# My cards\n\n- Format: `YYYY-MM-DD_concept` (ISO date, underscore)\n- Length: 15-60 characters\n\nExamples:\n- 2025-10-21_zettel_method\n',
      'mine.md',
    );
    expect(iso).toMatchObject({
      source: 'prose',
      rules: {
        title: {
          format: 'YYYY-MM-DD_concept',
          date_prefix: 'YYYY-MM-DD',
          separator: '_',
          min_length: 15,
          max_length: 60,
          examples: ['2025-10-21_zettel_method'],
        },
      },
    });
    expect(iso.notice).toMatch(/built-in rules are replaced by what the prose states \(format YYYY-MM-DD_concept/);
    expect(validateTitle(iso, '2025-10-21_Zettel Method')).toEqual([]);
    expect(validateTitle(iso, '20251021-Zettel-Method').map((v) => v.rule)).toEqual(['format']);

    const free = parseConventions('Titles are short English phrases naming one idea.\n', 'free.md');
    expect(free).toMatchObject({ source: 'prose', rules: { title: { date_prefix: 'none' } } });
    expect(free.notice).toMatch(
      /without a Format: line: the built-in YYYYMMDD- rule is replaced by the prose.*not format-checked/,
    );
    expect(validateTitle(free, 'Tool answers chain a stateless workflow')).toEqual([]);
    expect(validateTitle(free, 'MCP')).toEqual([]);
    expect(defaults.source).toBe('frontmatter');
  });

  it("reads a user's own rules and prose from the frontmatter and body", () => {
    const conv = parseConventions(
      '---\ntitle:\n  format: YYYY-MM-DD_concept\n  date_prefix: YYYY-MM-DD\n  separator: _\n  min_length: 12\n  max_length: 60\n  concept_pattern: "^[a-z]+(_[a-z]+)*$"\n  examples: [2025-10-21_zettel]\nheading:\n  needed_below_words: 2\n---\n# Mine\n\nLowercase only.\n',
      'mine.md',
    );
    expect(conv.text).toBe('# Mine\n\nLowercase only.');
    expect(validateTitle(conv, '2025-10-21_zettel_method')).toEqual([]);
    expect(validateTitle(conv, '2025-10-21_Zettel').map((v) => v.rule)).toEqual(['core_concept']);
    expect(validateTitle(conv, '20251021-zettel-method')[0]).toMatchObject({
      rule: 'format',
      example: '2025-10-21_zettel',
    });
    expect(conceptWords(conv, '2025-10-21_zettel_method')).toEqual(['zettel', 'method']);
    expect(datePrefix(conv, new Date(2025, 0, 5))).toBe('2025-01-05');
    expect(datePrefix(defaults, new Date(2025, 0, 5))).toBe('20250105');
  });

  it('fails start-up naming the file for a malformed conventions file', () => {
    for (const [text, reason] of [
      ['---\ntitle: [unclosed\n---\n', /not valid YAML/],
      ['---\ntitle:\n  min_length: many\n---\n', /title\.min_length/],
      ['---\ntitle:\n  nonsense: 1\n---\n', /title/],
      ['---\ntitle:\n  min_length: 50\n  max_length: 10\n---\n', /min_length is greater/],
      ['---\ntitle:\n  concept_pattern: "(["\n---\n', /not a valid regular expression/],
    ] as const) {
      const error = configFailure(text);
      expect(error.code).toBe('config_invalid');
      expect(error.message).toContain('/cfg/conventions.md');
      expect(error.message).toMatch(reason);
    }
  });
});
