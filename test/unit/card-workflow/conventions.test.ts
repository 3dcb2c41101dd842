import { describe, expect, it } from 'vitest';
import { NotekernelError } from '../../../kernel/errors.js';
import { conceptWords, datePrefix, parseConventions, validateTitle } from '../../../plugins/card-workflow/conventions.js';

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
    expect(defaults.rules.title).toMatchObject({ format: 'YYYYMMDD-CoreConcept', date_prefix: 'YYYYMMDD', separator: '-', min_length: 20, max_length: 40 });
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
    expect(rules('20251021-MCP')).toEqual(['length']);
    expect(rules('20251021-MCP-Tool-Driven-Sequential-Workflow-Design')).toEqual(['length']);
    expect(rules('MCP')).toEqual(['format', 'length']);
    const [violation] = validateTitle(defaults, '20251021-MCP');
    expect(violation).toEqual({ rule: 'length', message: 'The title is 12 characters long; the convention asks for 20-40.', example: '20251021-MCP-Tool-Driven-Design' });
  });

  it('reads a user\'s own rules and prose from the frontmatter and body', () => {
    const conv = parseConventions(
      '---\ntitle:\n  format: YYYY-MM-DD_concept\n  date_prefix: YYYY-MM-DD\n  separator: _\n  min_length: 12\n  max_length: 60\n  concept_pattern: "^[a-z]+(_[a-z]+)*$"\n  examples: [2025-10-21_zettel]\nheading:\n  needed_below_words: 2\n---\n# Mine\n\nLowercase only.\n',
      'mine.md',
    );
    expect(conv.text).toBe('# Mine\n\nLowercase only.');
    expect(validateTitle(conv, '2025-10-21_zettel_method')).toEqual([]);
    expect(validateTitle(conv, '2025-10-21_Zettel').map((v) => v.rule)).toEqual(['core_concept']);
    expect(validateTitle(conv, '20251021-zettel-method')[0]).toMatchObject({ rule: 'format', example: '2025-10-21_zettel' });
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
