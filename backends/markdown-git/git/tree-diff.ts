/**
 * Which markdown files a commit added or changed, by comparing raw tree objects. Subtrees with
 * the same oid are skipped whole; runs of identical entries are skipped by comparing bytes in
 * blocks, so a commit that touches three files in a folder of thousands costs a few memcmp
 * calls and one byte scan per entry, not thousands of decoded names. Deletions are not reported: timestamps only ever
 * concern files that exist afterwards.
 */
import type { GitObjectReader } from './object-reader.js';

export type OnChange = (path: string, before: string | null, after: string) => void;

const SLASH = 0x2f;
const SPACE = 0x20;

interface Cursor {
  buf: Buffer;
  pos: number;
}

/** Reports every `.md` blob that is new or different in `after` compared with `before`. */
export function diffTrees(
  reader: GitObjectReader,
  before: string | null,
  after: string | null,
  base: string,
  onChange: OnChange,
): void {
  if (after === null || before === after) return;
  const a: Cursor = { buf: before === null ? Buffer.alloc(0) : reader.require(before, 'tree'), pos: 0 };
  const b: Cursor = { buf: reader.require(after, 'tree'), pos: 0 };
  while (b.pos < b.buf.length) {
    if (a.pos < a.buf.length) skipEqualRun(a, b);
    if (b.pos >= b.buf.length) break;
    const eb = entryAt(b.buf, b.pos);
    let order = 1;
    let ea: Entry | undefined;
    while (a.pos < a.buf.length) {
      ea = entryAt(a.buf, a.pos);
      order = compareNames(a.buf, ea, b.buf, eb);
      if (order >= 0) break;
      a.pos = ea.next; // only in `before`: deleted, nothing to report
      ea = undefined;
    }
    if (ea && order === 0) {
      a.pos = ea.next;
      if (a.buf.compare(b.buf, eb.nul + 1, eb.next, ea.nul + 1, ea.next) !== 0 || ea.tree !== eb.tree) {
        report(
          reader,
          b.buf,
          eb,
          ea.tree === eb.tree ? a.buf.toString('hex', ea.nul + 1, ea.next) : null,
          base,
          onChange,
        );
      }
    } else {
      report(reader, b.buf, eb, null, base, onChange);
    }
    b.pos = eb.next;
  }
}

/** Every `.md` blob under a tree, as if added (a root commit, or a folder that appeared). */
export function listTree(reader: GitObjectReader, tree: string, base: string, onChange: OnChange): void {
  diffTrees(reader, null, tree, base, onChange);
}

/**
 * Every `.md` blob under a tree whose name contains `needle` (an entry id): names are decoded
 * only for those and for folders, so one entry is found among thousands without a string per file.
 */
export function findNamed(
  reader: GitObjectReader,
  tree: string,
  base: string,
  needle: Buffer,
  onFound: (path: string, blob: string) => void,
): void {
  const buf = reader.require(tree, 'tree');
  let hit = buf.indexOf(needle);
  for (let pos = 0; pos < buf.length; ) {
    const entry = entryAt(buf, pos);
    if (hit !== -1 && hit < entry.nameStart) hit = buf.indexOf(needle, entry.nameStart);
    pos = entry.next;
    if (entry.commit) continue;
    if (entry.tree) {
      const name = buf.toString('utf8', entry.nameStart, entry.nul);
      if (!name.startsWith('.'))
        findNamed(reader, buf.toString('hex', entry.nul + 1, entry.next), `${base}${name}/`, needle, onFound);
      continue;
    }
    if (hit === -1 || hit >= entry.nul) continue;
    const name = buf.toString('utf8', entry.nameStart, entry.nul);
    if (name.endsWith('.md')) onFound(`${base}${name}`, buf.toString('hex', entry.nul + 1, entry.next));
  }
}

/** The oid of the subtree at `segments` below `tree`, or null when it does not exist. */
export function subtreeAt(reader: GitObjectReader, tree: string, segments: readonly string[]): string | null {
  let current = tree;
  for (const segment of segments) {
    const buf = reader.require(current, 'tree');
    let found: string | null = null;
    for (let pos = 0; pos < buf.length; ) {
      const entry = entryAt(buf, pos);
      if (entry.tree && buf.toString('utf8', entry.nameStart, entry.nul) === segment) {
        found = buf.toString('hex', entry.nul + 1, entry.next);
        break;
      }
      pos = entry.next;
    }
    if (found === null) return null;
    current = found;
  }
  return current;
}

interface Entry {
  nameStart: number;
  nul: number;
  next: number;
  tree: boolean;
  /** A gitlink (submodule): never a note. */
  commit: boolean;
}

function entryAt(buf: Buffer, pos: number): Entry {
  const space = buf.indexOf(SPACE, pos);
  const nul = buf.indexOf(0, space);
  const first = buf[pos];
  // Modes: 40000 tree, 100644/100755 blob, 120000 symlink, 160000 gitlink.
  return {
    nameStart: space + 1,
    nul,
    next: nul + 21,
    tree: first === 0x34,
    commit: first === 0x31 && buf[pos + 1] === 0x36,
  };
}

/** git's tree order: bytewise, a tree's name compared as if it ended in `/`. */
function compareNames(a: Buffer, ea: Entry, b: Buffer, eb: Entry): number {
  const la = ea.nul - ea.nameStart;
  const lb = eb.nul - eb.nameStart;
  const len = Math.min(la, lb);
  const cmp = a.compare(b, eb.nameStart, eb.nameStart + len, ea.nameStart, ea.nameStart + len);
  if (cmp !== 0) return cmp;
  const ca = la > len ? (a[ea.nameStart + len] as number) : ea.tree ? SLASH : 0;
  const cb = lb > len ? (b[eb.nameStart + len] as number) : eb.tree ? SLASH : 0;
  return ca - cb;
}

/**
 * Both cursors sit on entry boundaries. Finds how many bytes from there are identical (doubling
 * steps, then halving, all memcmp), then hops over the whole entries inside that run on one
 * buffer (one native indexOf per entry) and moves the other cursor by the same distance.
 */
function skipEqualRun(a: Cursor, b: Cursor): void {
  const restA = a.buf.length - a.pos;
  const restB = b.buf.length - b.pos;
  // The usual end of a diff: after the last change both tails are the same bytes.
  if (restA === restB && same(a, b, 0, restA)) {
    a.pos = a.buf.length;
    b.pos = b.buf.length;
    return;
  }
  const max = Math.min(restA, restB);
  let equal = 0;
  let step = 1024;
  while (equal < max) {
    const len = Math.min(step, max - equal);
    if (same(a, b, equal, len)) {
      equal += len;
      step *= 2;
      continue;
    }
    let hi = equal + len;
    while (hi - equal > 64) {
      const mid = (equal + hi) >>> 1;
      if (same(a, b, equal, mid - equal)) equal = mid;
      else hi = mid;
    }
    break;
  }
  const limit = a.pos + equal;
  let pos = a.pos;
  for (;;) {
    const next = a.buf.indexOf(0, pos) + 21;
    if (next <= 20 || next > limit) break;
    pos = next;
  }
  b.pos += pos - a.pos;
  a.pos = pos;
}

function same(a: Cursor, b: Cursor, from: number, len: number): boolean {
  return a.buf.compare(b.buf, b.pos + from, b.pos + from + len, a.pos + from, a.pos + from + len) === 0;
}

function report(
  reader: GitObjectReader,
  buf: Buffer,
  entry: Entry,
  before: string | null,
  base: string,
  onChange: OnChange,
): void {
  if (entry.commit) return;
  const name = buf.toString('utf8', entry.nameStart, entry.nul);
  const after = buf.toString('hex', entry.nul + 1, entry.next);
  if (entry.tree) {
    if (name.startsWith('.')) return; // .notekernel, .github, ...: never entries
    diffTrees(reader, before, after, `${base}${name}/`, onChange);
    return;
  }
  if (name.endsWith('.md')) onChange(`${base}${name}`, before, after);
}
