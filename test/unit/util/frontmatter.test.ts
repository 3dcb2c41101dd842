import { describe, expect, it } from 'vitest';
import {
  assertReadableFrontmatter,
  FRONTMATTER_BOUNDS,
  loadYamlBounded,
  splitFrontmatter,
  tooDeepField,
  YamlBoundError,
} from '../../../toolkit/markdown/frontmatter.js';
import { ValidationError } from '../../../kernel/errors.js';
import { aliasBomb } from '../../support/hostile.js';

describe('loadYamlBounded', () => {
  it('refuses an alias bomb, naming the field where the bound was crossed (how soon: test/bench/time-bounds.ts)', () => {
    let error: unknown;
    try {
      loadYamlBounded(aliasBomb());
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(YamlBoundError);
    expect((error as YamlBoundError).field).toMatch(/^[a-l]$/);
  });

  it('keeps aliases that expand modestly, as copies (no shared objects)', () => {
    const data = loadYamlBounded('base: &b {x: 1}\nother: *b\n') as Record<string, unknown>;
    expect(data).toEqual({ base: { x: 1 }, other: { x: 1 } });
    expect(data.base).not.toBe(data.other);
  });

  it("refuses nesting past the bound, and js-yaml's own limit as a bound too", () => {
    const nested = (n: number) => `k: ${'['.repeat(n)}${']'.repeat(n)}`;
    expect(() => loadYamlBounded(nested(FRONTMATTER_BOUNDS.maxDepth - 1))).not.toThrow();
    expect(() => loadYamlBounded(nested(FRONTMATTER_BOUNDS.maxDepth + 1))).toThrow(YamlBoundError);
    expect(() => loadYamlBounded(nested(150))).toThrow(YamlBoundError);
  });

  it('refuses YAML larger than the byte bound without parsing it', () => {
    expect(() => loadYamlBounded(`a: "${'x'.repeat(FRONTMATTER_BOUNDS.maxBytes)}"`)).toThrow(/larger than/);
  });

  it('keeps dates as written and repeated keys as their last value', () => {
    expect(loadYamlBounded('d: 2024-01-02\na: 1\na: 2')).toEqual({ d: '2024-01-02', a: 2 });
  });
});

describe('splitFrontmatter', () => {
  it('splits fence, yaml and body; no fence means no frontmatter', () => {
    expect(splitFrontmatter('---\na: 1\n---\n\nbody')).toEqual({ yaml: 'a: 1', body: 'body', rest: '\nbody' });
    expect(splitFrontmatter('---\n---\nbody').yaml).toBe('');
    expect(splitFrontmatter('no fence').yaml).toBeUndefined();
  });
});

describe('write-time checks', () => {
  it('tooDeepField names the first key nesting past what the reader reads back', () => {
    let deep: Record<string, unknown> = {};
    const top = deep;
    for (let i = 0; i < 99; i++) deep = deep.k = {} as Record<string, unknown>;
    expect(tooDeepField({ fine: { a: [1, { b: 2 }] }, deep: top } as never)).toBe('deep');
    expect(tooDeepField({ fine: { a: [1] } })).toBeUndefined();
  });

  it('assertReadableFrontmatter refuses a bomb with validation_failed naming the field, lets bad YAML through', () => {
    expect(() => assertReadableFrontmatter(`---\n${aliasBomb()}---\nbody`, 'cards/x.md')).toThrow(ValidationError);
    try {
      assertReadableFrontmatter(`---\n${aliasBomb()}---\nbody`, 'cards/x.md');
    } catch (err) {
      expect((err as ValidationError).details).toMatchObject({
        field: expect.stringMatching(/^[a-l]$/),
        path: 'cards/x.md',
      });
    }
    expect(() => assertReadableFrontmatter('---\ntitle: [unclosed\n---\nbody', 'x.md')).not.toThrow();
  });
});
