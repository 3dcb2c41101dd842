import { describe, expect, it } from 'vitest';
import { applyTextPatch } from '../../../plugins/simplenote-tools/text-patch.js';
import { listFilters } from '../../../plugins/simplenote-tools/list-filters.js';

const TEXT = 'one\ntwo\nthree\nfour';

describe('text_patch (seed 003 order, against the text that was read)', () => {
  it('deletes and modifies lines of the read text, then adds low to high at result lines', () => {
    expect(
      applyTextPatch(TEXT, [
        { operation: 'addition', line_number: 5, value: 'end' },
        { operation: 'deletion', line_number: 4 },
        { operation: 'modification', line_number: 3, value: 'THREE' },
        { operation: 'addition', line_number: 1, value: 'start' },
      ]),
    ).toBe('start\none\ntwo\nTHREE\nend');
    expect(
      applyTextPatch(TEXT, [
        { operation: 'deletion', line_number: 4 },
        { operation: 'deletion', line_number: 2 },
      ]),
    ).toBe('one\nthree');
    expect(applyTextPatch('', [{ operation: 'modification', line_number: 1, value: 'Title' }])).toBe('Title');
  });

  it('refuses a modification below a deletion, which the seed leaves ambiguous, saying how to send it', () => {
    const mixed = () =>
      applyTextPatch(TEXT, [
        { operation: 'deletion', line_number: 1 },
        { operation: 'modification', line_number: 3, value: 'THREE' },
      ]);
    expect(mixed).toThrow(expect.objectContaining({ details: { field: 'text_patch.1.line_number' } }));
    expect(mixed).toThrow(/ambiguous.*two saves, or the whole text/);
    expect(applyTextPatch(TEXT, [{ operation: 'deletion', line_number: 1 }])).toBe('two\nthree\nfour');
    expect(applyTextPatch('two\nthree\nfour', [{ operation: 'modification', line_number: 2, value: 'THREE' }])).toBe(
      'two\nTHREE\nfour',
    );
  });

  it('refuses a line out of range, a doubled line or a missing value, naming the operation', () => {
    expect(() => applyTextPatch(TEXT, [{ operation: 'deletion', line_number: 5 }])).toThrow(
      expect.objectContaining({ details: { field: 'text_patch.0.line_number' } }),
    );
    expect(() =>
      applyTextPatch(TEXT, [
        { operation: 'modification', line_number: 1, value: 'a' },
        { operation: 'addition', line_number: 6, value: 'x' },
      ]),
    ).toThrow(expect.objectContaining({ details: { field: 'text_patch.1.line_number' } }));
    expect(() =>
      applyTextPatch(TEXT, [
        { operation: 'deletion', line_number: 2 },
        { operation: 'modification', line_number: 2, value: 'b' },
      ]),
    ).toThrow(expect.objectContaining({ details: { field: 'text_patch.1.line_number' } }));
    expect(() => applyTextPatch(TEXT, [{ operation: 'addition', line_number: 1 }])).toThrow(
      expect.objectContaining({ details: { field: 'text_patch.0.value' } }),
    );
  });
});

describe('list filters taken out of the query', () => {
  it('extracts tag:, before: and after:, combining them with the arguments', () => {
    const f = listFilters({
      query: 'kestrel tag:birds  plan after:2024-01-10 before:2024-02-01 tag:work',
      tags: ['x'],
      date_before: '2024-01-20',
    });
    expect(f).toEqual({
      text: 'kestrel plan',
      tags: ['x', 'birds', 'work'],
      withoutTags: [],
      before: Date.UTC(2024, 0, 21) / 1000,
      after: Date.UTC(2024, 0, 10) / 1000,
    });
    expect(listFilters({ query: 'email:me before:tomorrow' })).toEqual({
      text: 'email:me before:tomorrow',
      tags: [],
      withoutTags: [],
    });
    expect(listFilters({ query: 'kestrel -tag:"old birds" tag:"two words" -before:2024-01-10' })).toEqual({
      text: 'kestrel',
      tags: ['two words'],
      withoutTags: ['old birds'],
      after: Date.UTC(2024, 0, 11) / 1000,
    });
  });

  it('refuses a date that is not on the calendar, naming the field', () => {
    expect(() => listFilters({ date_after: '2024-02-31' })).toThrow(
      expect.objectContaining({ details: { field: 'date_after' } }),
    );
    expect(() => listFilters({ query: 'before:2024-13-01' })).toThrow(
      expect.objectContaining({ details: { field: 'query' } }),
    );
  });
});
