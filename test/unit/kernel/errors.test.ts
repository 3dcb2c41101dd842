import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ContentHashMismatchError,
  ERROR_CODES,
  NotekernelError,
  systemFault,
  toNotekernelError,
} from '../../../kernel/errors.js';

describe('error catalogue', () => {
  const doc = fs.readFileSync('docs/errors.md', 'utf8');

  // The table is ERROR_CODES written out: each row is the code and the very meaning the code gives.
  it.each(Object.entries(ERROR_CODES))('documents %s in docs/errors.md with its meaning', (code, meaning) => {
    expect(doc).toContain(`| \`${code}\` | ${meaning} |`);
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

describe('system faults', () => {
  const errno = (code: string, path?: string) =>
    Object.assign(new Error(`${code}: failed`), { code, ...(path ? { path } : {}) });

  it.each([
    ['ENOSPC', 'no_space', 'no space left on the device'],
    ['SQLITE_FULL', 'no_space', 'no space left on the device'],
    ['EDQUOT', 'no_space', 'the disk quota is exceeded'],
    ['EACCES', 'permission_denied', 'permission denied'],
    ['EPERM', 'permission_denied', 'operation not permitted'],
    ['EROFS', 'read_only', 'the file system is read-only'],
    ['SQLITE_READONLY_DIRECTORY', 'read_only', 'the index file cannot be written'],
    ['ENAMETOOLONG', 'validation_failed', 'the name is too long for the file system'],
  ])('%s is %s, naming the file and the cause', (code, expected, cause) => {
    const fault = systemFault(errno(code), 'general/note.md');
    expect(fault?.toBody()).toEqual({
      error: expected,
      message: `general/note.md: ${cause}.`,
      path: 'general/note.md',
      cause: code,
    });
    expect(toNotekernelError(errno(code, '/abs/general/note.md')).code).toBe(expected);
  });

  it('leaves other errors alone', () => {
    expect(systemFault(errno('EIO'))).toBeUndefined();
    expect(systemFault(new Error('plain'))).toBeUndefined();
    expect(toNotekernelError(errno('EIO')).code).toBe('internal');
  });

  it('does not quote a name too long for the file system whole', () => {
    const long = `general/${'x'.repeat(100_000)}.md`;
    const fault = systemFault(errno('ENAMETOOLONG'), long) as NotekernelError;
    expect(fault.message.length).toBeLessThan(400);
    expect(fault.message).toContain('(100011 characters)');
  });
});
