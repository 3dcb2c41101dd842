/**
 * agent-memory-v2 (seed 002 US-009): every `.md` under the root (all orgs, archive folders)
 * from the v1 header format to pure markdown, in one pass. Never loses an entry: the new file
 * is written first (never over another file), the old one removed only after; a file that
 * cannot be converted is left exactly as it was and reported. Idempotent: converted files have
 * no header and no `_top-of-mind` prefix, so a second run skips them all.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { ConflictError } from '../../../../kernel/errors.js';
import { writeFileAtomic } from '../../../../toolkit/files/atomic-write.js';
import type { MigrationReport, MigrationStep, StepInput } from '../types.js';
import { convertV1 } from './v1-format.js';

export const agentMemoryV2: MigrationStep = {
  id: 'agent-memory-v2',
  description:
    'agent-memory v1 (<!-- agent-memory:meta --> headers, _top-of-mind prefixes) → v2 pure markdown (# title, #tags, body)',
  async run(input: StepInput): Promise<MigrationReport> {
    const report: MigrationReport = {
      step: 'agent-memory-v2',
      rootDir: input.rootDir,
      dryRun: input.dryRun,
      migrated: [],
      skipped: [],
      errors: [],
    };
    const files = await markdownFiles(input.rootDir, '');
    input.progress.start(input.dryRun ? 'checking entries' : 'migrating entries', files.length);
    for (const rel of files) {
      try {
        await migrateOne(input, rel, report);
      } catch (err) {
        report.errors.push({ path: rel, reason: (err as Error).message });
      }
      input.progress.tick();
    }
    input.progress.stop();
    return report;
  },
};

async function migrateOne(input: StepInput, rel: string, report: MigrationReport): Promise<void> {
  const absolute = path.join(input.rootDir, ...rel.split('/'));
  const text = await fs.readFile(absolute, 'utf8');
  const dir = path.posix.dirname(rel);
  const filename = path.posix.basename(rel);
  const outcome = convertV1(filename, text, rel.split('/').slice(0, -1).includes('archive'));
  if (outcome.kind === 'already-v2') return void report.skipped.push({ path: rel, reason: outcome.reason });
  if (outcome.kind === 'error') return void report.errors.push({ path: rel, reason: outcome.reason });
  const to = dir === '.' ? outcome.filename : `${dir}/${outcome.filename}`;
  const entry = { from: rel, to, ...(outcome.warnings.length ? { warnings: outcome.warnings } : {}) };
  const target = path.join(input.rootDir, ...to.split('/'));
  const time = outcome.updatedAt ? { updatedAt: outcome.updatedAt } : {};
  if (to !== rel) {
    const existing = await fs.readFile(target, 'utf8').catch(() => undefined);
    // The same bytes already there: an earlier run stopped between writing and removing.
    if (existing !== undefined && existing !== outcome.text) {
      return void report.errors.push({
        path: rel,
        reason: `${to} already exists with other content; the file was left as it is`,
      });
    }
    if (existing === undefined) input.plan?.push({ path: to, before: null, text: outcome.text, ...time });
    input.plan?.push({ path: rel, before: text, text: null, replacedBy: { path: to, text: outcome.text } });
    if (!input.dryRun) {
      if (existing === undefined) {
        try {
          await writeFileAtomic(target, outcome.text, { exclusive: true });
        } catch (err) {
          if (err instanceof ConflictError)
            return void report.errors.push({
              path: rel,
              reason: `${to} appeared meanwhile; the file was left as it is`,
            });
          throw err;
        }
      }
      await fs.rm(absolute);
    }
  } else {
    input.plan?.push({ path: rel, before: text, text: outcome.text, ...time });
    if (!input.dryRun) await writeFileAtomic(target, outcome.text);
  }
  // Keeps file-time fallbacks (a root without git) close to v1's updatedAt.
  if (!input.dryRun && outcome.updatedAt) await fs.utimes(target, new Date(), outcome.updatedAt);
  report.migrated.push(entry);
}

async function markdownFiles(root: string, rel: string): Promise<string[]> {
  const out: string[] = [];
  const entries = await fs.readdir(rel ? path.join(root, ...rel.split('/')) : root, { withFileTypes: true });
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const child = rel ? `${rel}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...(await markdownFiles(root, child)));
    else if (entry.isFile() && entry.name.toLowerCase().endsWith('.md')) out.push(child);
  }
  return out.sort();
}
