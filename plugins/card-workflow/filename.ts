/**
 * save_card's filename rule. A filename is one name inside the output directory, never a path:
 * NUL bytes, `/`, `\`, absolute paths, `..` and `.` are refused outright (after NFKC, so
 * full-width look-alikes are caught too). The rest is sanitised from an allow-list (letters,
 * marks, digits, `-`, `_`, `.`, parentheses; whitespace becomes `-`), leading dots and
 * underscores go (the index skips hidden and `_` files), `.md` is ensured and the length capped.
 * With sanitisation off, a name that would change is refused instead, showing the safe form.
 */
import { PathOutsideVaultError, ValidationError } from '../../kernel/errors.js';
import { nonPortableReason } from '../../toolkit/files/paths.js';

export interface SafeFilename {
  filename: string;
  /** True when the name differs from the one asked for (beyond adding `.md`). */
  sanitized: boolean;
}

/** Room is left for the `.backup.N` suffix within the usual 255-byte limit. */
const MAX_BYTES = 200;

export function safeFilename(raw: string, options: { sanitize: boolean }): SafeFilename {
  if (raw.includes('\0')) throw new PathOutsideVaultError(raw, 'it contains a NUL byte');
  const requested = raw.trim();
  if (requested === '')
    throw new ValidationError('filename is empty: pass a name such as 20251021-Core-Concept.md', { field: 'filename' });
  const normal = requested.normalize('NFKC');
  if (normal.startsWith('/') || normal.startsWith('~/'))
    throw new PathOutsideVaultError(raw, 'absolute paths are not allowed; pass a file name only');
  if (normal.includes('/') || normal.includes('\\')) {
    throw new PathOutsideVaultError(
      raw,
      'a filename cannot contain "/" or "\\"; cards are saved in the output directory only',
    );
  }
  if (/^[a-zA-Z]:$/.test(normal)) throw new PathOutsideVaultError(raw, 'a drive letter names a drive, not a card');
  if (normal === '.' || normal === '..')
    throw new PathOutsideVaultError(raw, '"." and ".." name directories, not cards');

  const stemOf = (name: string) => name.replace(/\.md$/i, '');
  const cleaned = clean(stemOf(normal));
  if (cleaned === '') {
    throw new ValidationError(
      `filename "${printable(raw)}" has no usable characters left: use letters, digits, "-" or "_"`,
      { field: 'filename' },
    );
  }
  const stem = truncateBytes(cleaned, MAX_BYTES - 3);
  const filename = `${stem}.md`;
  const nonPortable = nonPortableReason(stem);
  if (nonPortable) {
    throw new ValidationError(
      `filename "${printable(raw)}" ${nonPortable.replace('is a device name', 'is a reserved device name')}; choose another name`,
      { field: 'filename' },
    );
  }
  const sanitized = stem !== stemOf(requested);
  if (sanitized && !options.sanitize) {
    throw new ValidationError(
      `filename "${printable(raw)}" contains characters that are not allowed (filename_sanitization is off); a safe form is "${filename}"`,
      { field: 'filename', suggestion: filename },
    );
  }
  return { filename, sanitized };
}

function clean(stem: string): string {
  return stem
    .replace(/\s+/gu, '-')
    .replace(/[^\p{L}\p{M}\p{N}_.()-]/gu, '')
    .replace(/-{2,}/g, '-')
    .replace(/\.{2,}/g, '.')
    .replace(/^[._-]+/, '')
    .replace(/[._-]+$/, '');
}

function truncateBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  let out = '';
  for (const char of text) {
    if (Buffer.byteLength(out + char) > max) break;
    out += char;
  }
  return out.replace(/[._-]+$/, '');
}

function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
