/**
 * Titles to filename slugs, one implementation for every backend. Letters, marks and digits of
 * any script are kept, lower-cased after NFC composition (one title, one filename); the result is
 * cut by code points (never inside a surrogate pair) and to 200 UTF-8 bytes, never starts with `-`, `_` or `.` nor ends
 * with `-`, and is `untitled` when nothing is left.
 *
 * Backends differ in what becomes a dash, and each keeps its seed's filenames:
 * - `whitespace` (fs-sqlite, flint): runs of whitespace become one dash; other punctuation is
 *   dropped (`a.b` → `ab`); `_` and `-` are kept.
 * - `non-alphanumeric` (markdown-git, agent-memory entries): every run of characters that are not
 *   letters, marks or digits becomes one dash (`a.b` → `a-b`, `a_b` → `a-b`).
 */
export interface SlugRule {
  dashes: 'whitespace' | 'non-alphanumeric';
  /** In code points. */
  maxLength: number;
}

export function slugify(title: string, rule: SlugRule): string {
  const lower = title.normalize('NFC').trim().toLowerCase();
  const dashed =
    rule.dashes === 'whitespace'
      ? lower
          .replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '')
          .replace(/\s+/g, '-')
          .replace(/-+/g, '-')
      : lower.replace(/[^\p{L}\p{M}\p{N}]+/gu, '-');
  // A leading `_` or `.` would make the file a type file or hidden.
  const slug = dashed.replace(/^[-_]+|-+$/g, '');
  const capped = fitBytes([...slug].slice(0, rule.maxLength))
    .join('')
    .replace(/-+$/, '');
  return capped || 'untitled';
}

/**
 * File names are limited in bytes (255 on every common file system), not code points: 100 CJK
 * characters are 300 bytes. This leaves room for the extension and a backend's id suffix.
 */
const MAX_SLUG_BYTES = 200;

function fitBytes(points: string[]): string[] {
  let bytes = 0;
  for (let i = 0; i < points.length; i++) {
    bytes += Buffer.byteLength(points[i] as string, 'utf8');
    if (bytes > MAX_SLUG_BYTES) return points.slice(0, i);
  }
  return points;
}
