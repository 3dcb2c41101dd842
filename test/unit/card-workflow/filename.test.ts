import { describe, expect, it } from 'vitest';
import type { NotekernelError } from '../../../kernel/errors.js';
import { safeFilename } from '../../../plugins/card-workflow/filename.js';

function code(raw: string, sanitize = true): string {
  try {
    safeFilename(raw, { sanitize });
  } catch (err) {
    return (err as NotekernelError).code;
  }
  return 'accepted';
}

describe('safeFilename', () => {
  it('keeps a convention title and ensures .md', () => {
    expect(safeFilename('20251021-MCP-Stateless-Workflow', { sanitize: true })).toEqual({
      filename: '20251021-MCP-Stateless-Workflow.md',
      sanitized: false,
    });
    expect(safeFilename('20251021-MCP.md', { sanitize: true }).filename).toBe('20251021-MCP.md');
    expect(safeFilename('Card.MD', { sanitize: true })).toEqual({ filename: 'Card.md', sanitized: false });
    expect(safeFilename('notes.txt', { sanitize: true }).filename).toBe('notes.txt.md');
    expect(safeFilename('  Zettel über Ideen  ', { sanitize: true }).filename).toBe('Zettel-über-Ideen.md');
    expect(safeFilename('日本語のカード', { sanitize: true }).filename).toBe('日本語のカード.md');
  });

  it.each([
    ['../x.md', 'path_outside_vault'],
    ['a/b.md', 'path_outside_vault'],
    ['a\\b.md', 'path_outside_vault'],
    ['/abs.md', 'path_outside_vault'],
    ['~/x.md', 'path_outside_vault'],
    ['C:', 'path_outside_vault'],
    ['x\u0000.md', 'path_outside_vault'],
    ['..', 'path_outside_vault'],
    ['.', 'path_outside_vault'],
    ['\uff0e\uff0e\uff0fx.md', 'path_outside_vault'],
    ['\uff3cx.md', 'path_outside_vault'],
    ['', 'validation_failed'],
    ['???', 'validation_failed'],
    ['.md', 'validation_failed'],
    ['nul.md', 'validation_failed'],
    ['COM1', 'validation_failed'],
  ])('refuses %j with %s', (raw, expected) => {
    expect(code(raw)).toBe(expected);
  });

  it('sanitises unsafe characters, hidden and _ prefixes, runs of - and .', () => {
    const cases: Array<[string, string]> = [
      ['.hidden', 'hidden.md'],
      ['__init__', 'init.md'],
      ['a: b? "c" <d> |e| *f*', 'a-b-c-d-e-f.md'],
      ['tab\there', 'tab-here.md'],
      ['x\u202Ey', 'xy.md'],
      ['zero\u200Bwidth', 'zerowidth.md'],
      ['a...b', 'a.b.md'],
      ['a - - b', 'a-b.md'],
      ['trailing. ', 'trailing.md'],
      ['ok\u2215slash', 'okslash.md'],
      ['C:x', 'Cx.md'],
    ];
    for (const [raw, filename] of cases)
      expect(safeFilename(raw, { sanitize: true }), JSON.stringify(raw)).toEqual({ filename, sanitized: true });
  });

  it('caps the length in bytes without splitting a character', () => {
    const long = safeFilename('é'.repeat(300), { sanitize: true }).filename;
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(200);
    expect(long).toMatch(/^é+\.md$/);
  });

  it('with sanitisation off refuses a name that would change, suggesting the safe form', () => {
    expect(code('20251021-Fine')).toBe('accepted');
    expect(code('20251021-Fine', false)).toBe('accepted');
    try {
      safeFilename('needs fixing?', { sanitize: false });
      throw new Error('accepted');
    } catch (err) {
      expect((err as NotekernelError).code).toBe('validation_failed');
      expect((err as NotekernelError).details).toMatchObject({ suggestion: 'needs-fixing.md' });
    }
    expect(code('../x', false)).toBe('path_outside_vault');
  });
});
