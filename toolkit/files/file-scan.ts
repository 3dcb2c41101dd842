/**
 * One pass over a vault's folders: every markdown file and every temp file an interrupted write
 * left, with size and times, from one readdir per folder and one stat per such file. Hidden
 * folders and node_modules are not entered; symlinks are not followed. Layouts decide which
 * folders hold notes; this only gathers, and sums each folder up so that an unchanged vault is
 * recognised without a per-file loop (decision 012).
 */
import fs from 'node:fs';
import { TEMP_PREFIX } from './atomic-write.js';
import { fileStateHash, xor53 } from './file-digest.js';
import { skipReason, type ReadRules } from './small-file.js';

export interface FolderSummary {
  /** XOR of the note files' fileStateHash (file-digest.ts). */
  digest: number;
  notes: number;
}

export interface FileScan {
  /** Relative to the root, `/`-separated: note files and temp files. */
  paths: string[];
  /** Per path: size, mtimeMs, birthtimeMs, fileStateHash. */
  stats: Float64Array;
  /** Per folder ('' is the root) that holds notes. */
  folders: Map<string, FolderSummary>;
  /** Temp files of interrupted writes (also in `paths`). */
  temps: string[];
  /** Note-named entries that are not read: FIFOs, sockets, devices, hard-linked files (skipReason). */
  skipped: Array<{ path: string; reason: string }>;
}

export const STATS_PER_FILE = 4;

/**
 * A note file: markdown, not hidden, not a temp file, and not a type's `_` file unless
 * `underscoreNotes` (a vault where `_Index.md` is a note like any other: Obsidian's).
 */
export function isNoteFileName(name: string, underscoreNotes = false): boolean {
  return (
    name.toLowerCase().endsWith('.md') &&
    !name.startsWith('.') &&
    (underscoreNotes || !name.startsWith('_')) &&
    !name.startsWith(TEMP_PREFIX)
  );
}

/** What a scan gathers besides the read rules: `underscoreNotes` as in isNoteFileName. */
export interface ScanRules extends ReadRules {
  underscoreNotes?: boolean;
}

export function folderOf(relPath: string): string {
  const slash = relPath.lastIndexOf('/');
  return slash < 0 ? '' : relPath.slice(0, slash);
}

export function scanFiles(root: string, rules: ScanRules = {}): FileScan {
  const scan = emptyScan();
  const values: number[] = [];
  for (const _ of walk(root, '', scan, values, rules));
  return finish(scan, values);
}

/**
 * The same scan in slices of about `sliceMs`, awaiting `pause()` between them, so that a
 * served vault answers requests while a large folder tree is being stat-ed. `pause` may
 * reject (the vault is closing) to stop the scan there.
 */
export async function scanFilesInSlices(
  root: string,
  pause: () => Promise<void>,
  sliceMs = 4,
  rules: ScanRules = {},
): Promise<FileScan> {
  const scan = emptyScan();
  const values: number[] = [];
  const steps = walk(root, '', scan, values, rules);
  for (;;) {
    const until = performance.now() + sliceMs;
    for (;;) {
      if (steps.next().done) return finish(scan, values);
      if (performance.now() >= until) break;
    }
    await pause();
  }
}

function emptyScan(): FileScan {
  return { paths: [], stats: new Float64Array(0), folders: new Map(), temps: [], skipped: [] };
}

function finish(scan: FileScan, values: number[]): FileScan {
  scan.stats = Float64Array.from(values);
  return scan;
}

/** Depth-first over `folder`; yields after each file it stats, so a caller can slice the work. */
function* walk(root: string, folder: string, scan: FileScan, values: number[], rules: ScanRules): Generator<void> {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(folder ? `${root}/${folder}` : root, { withFileTypes: true });
  } catch (err) {
    // Removed while scanning: nothing to tell. Unreadable: its notes are left out, and said so.
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR')
      scan.skipped.push({
        path: `${folder || '.'}/`,
        reason: `unreadable folder (${code ?? 'error'}): the notes in it are left out until it can be read`,
      });
    return;
  }
  const summary: FolderSummary = { digest: 0, notes: 0 };
  for (const entry of entries) {
    const rel = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      if (!entry.name.startsWith('.') && entry.name !== 'node_modules') yield* walk(root, rel, scan, values, rules);
      continue;
    }
    const temp = entry.name.startsWith(TEMP_PREFIX);
    if (!(temp || isNoteFileName(entry.name, rules.underscoreNotes === true))) continue;
    if (!entry.isFile()) {
      // Symbolic links are not followed (silently, as ever); a FIFO or socket named *.md is reported.
      if (!entry.isSymbolicLink() && !temp)
        scan.skipped.push({
          path: rel,
          reason: 'not a regular file (a FIFO, socket or device); only regular files are read',
        });
      continue;
    }
    // String concatenation, not path.join: the names come from readdir, already normal.
    const stats = fs.statSync(`${root}/${rel}`, { throwIfNoEntry: false });
    if (!stats) continue; // removed between readdir and stat
    const skipped = temp ? undefined : skipReason(stats, rules, `${root}/${rel}`);
    if (skipped) {
      scan.skipped.push({ path: rel, reason: skipped });
      continue;
    }
    const hash = fileStateHash(rel, stats.size, stats.mtimeMs);
    scan.paths.push(rel);
    values.push(stats.size, stats.mtimeMs, stats.birthtimeMs, hash);
    if (temp) {
      scan.temps.push(rel);
    } else {
      summary.digest = xor53(summary.digest, hash);
      summary.notes++;
    }
    yield;
  }
  if (summary.notes) scan.folders.set(folder, summary);
}
