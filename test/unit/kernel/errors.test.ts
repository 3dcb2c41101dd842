import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ContentHashMismatchError, ERROR_CODES, NotekernelError, toNotekernelError } from '../../../kernel/errors.js';

describe('error catalogue', () => {
  const doc = fs.readFileSync('docs/errors.md', 'utf8');

  it.each(Object.keys(ERROR_CODES))('documents %s in docs/errors.md', (code) => {
    expect(doc).toContain(`| \`${code}\` |`);
  });

  it('documents no code that does not exist', () => {
    const documented = [...doc.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    expect(documented.sort()).toEqual(Object.keys(ERROR_CODES).sort());
  });

  it("renders the content-hash mismatch exactly as seed 000's body", () => {
    const body = new ContentHashMismatchError('sha256:current', 'sha256:provided').toBody();
    expect(body).toEqual({
      error: 'content_hash_mismatch',
      message: 'Note content has been modified since last read. Please fetch the latest version.',
      current_hash: 'sha256:current',
      provided_hash: 'sha256:provided',
    });
  });

  it('wraps foreign errors as internal, keeping the cause', () => {
    const cause = new TypeError('boom');
    const wrapped = toNotekernelError(cause);
    expect(wrapped).toBeInstanceOf(NotekernelError);
    expect(wrapped.code).toBe('internal');
    expect(wrapped.cause).toBe(cause);
  });
});
