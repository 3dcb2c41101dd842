/**
 * A memory root with a long git history, built with `git fast-import` (one process, one pack:
 * seconds instead of the minutes 2,000 `git commit` calls take). Entries are seed 002 files
 * (`slug id__XXXXXX.md`) spread over the root, `archive/` and `orgs/{org}/`; every commit adds
 * entries and edits a few older ones, and some commits rename an entry (same id, new slug).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export interface GitFixture {
  root: string;
  files: number;
  commits: number;
  /** Vault-relative paths present at HEAD. */
  paths: string[];
}

/** A deterministic pseudo-random sequence, so two runs build the same repository. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

/** n → 6 base58 digits; multiplying by a number coprime to 58^6 makes it one-to-one. */
function idFor(n: number): string {
  let v = (n * 2654435761) % 58 ** 6;
  let out = '';
  for (let i = 0; i < 6; i++) {
    out += BASE58[v % 58];
    v = Math.floor(v / 58);
  }
  return `id__${out}`;
}

function folderFor(n: number): string {
  const bucket = n % 20;
  if (bucket < 6) return '';
  if (bucket < 8) return 'archive/';
  return `orgs/org-${String(bucket % 6).padStart(2, '0')}/`;
}

function data(text: string): string {
  return `data ${Buffer.byteLength(text)}\n${text}\n`;
}

function quote(p: string): string {
  return `"${p.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

export function gitAvailable(): boolean {
  return spawnSync('git', ['--version'], { encoding: 'utf8' }).status === 0;
}

/** Builds (or reuses, when `reuse` and the marker matches) a repository at `root`. */
export function buildGitFixture(root: string, files = 10_000, commits = 2_000, reuse = true): GitFixture {
  const marker = path.join(root, '.git', 'nk-fixture.json');
  if (reuse && fs.existsSync(marker)) {
    const saved = JSON.parse(fs.readFileSync(marker, 'utf8')) as GitFixture;
    if (saved.files === files && saved.commits === commits) return { ...saved, root };
  }
  fs.rmSync(root, { recursive: true, force: true });
  fs.mkdirSync(root, { recursive: true });
  run(root, ['init', '-q', '-b', 'main']);
  const random = rng(42);
  const current = new Map<number, string>(); // entry number → path
  const perCommit = Math.ceil(files / commits);
  let next = 0;
  const chunks: string[] = [];
  const start = 1_600_000_000;
  for (let c = 0; c < commits; c++) {
    const time = start + c * 3600;
    const lines: string[] = [];
    for (let k = 0; k < perCommit && next < files; k++, next++) {
      const p = `${folderFor(next)}entry-${next} ${idFor(next)}.md`;
      current.set(next, p);
      lines.push(
        `M 100644 inline ${quote(p)}\n${data(`# Entry ${next}\n\n#bench #c${c % 7}\n\nbody of entry ${next}, written in commit ${c}.\n`)}`,
      );
    }
    for (let k = 0; k < 3 && next > 10; k++) {
      const n = Math.floor(random() * next);
      const p = current.get(n) as string;
      lines.push(
        `M 100644 inline ${quote(p)}\n${data(`# Entry ${n}\n\n#bench\n\nbody of entry ${n}, edited in commit ${c}.\n`)}`,
      );
    }
    if (c % 40 === 39) {
      const n = Math.floor(random() * next);
      const from = current.get(n) as string;
      const to = `${folderFor(n)}renamed-${n}-c${c} ${idFor(n)}.md`;
      if (from !== to) {
        lines.push(`R ${quote(from)} ${quote(to)}\n`);
        current.set(n, to);
      }
    }
    const who = `Bench <bench@example.com> ${time} +0000`;
    chunks.push(`commit refs/heads/main\nauthor ${who}\ncommitter ${who}\n${data(`commit ${c}`)}${lines.join('')}\n`);
  }
  const result = spawnSync('git', ['fast-import', '--quiet'], {
    cwd: root,
    input: chunks.join(''),
    maxBuffer: 1 << 30,
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`git fast-import failed: ${result.stderr}`);
  run(root, ['checkout', '-q', '-f', 'main']);
  const fixture: GitFixture = { root, files: next, commits, paths: [...current.values()] };
  fs.writeFileSync(marker, JSON.stringify(fixture));
  return fixture;
}

function run(cwd: string, args: string[]): string {
  const result = spawnSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${result.stderr}`);
  return result.stdout;
}
