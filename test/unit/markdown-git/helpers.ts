/** Real git repositories for markdown-git tests (the git binary builds fixtures and is the oracle). */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pino } from 'pino';
import type { Logger } from '../../../kernel/logger.js';
import {
  markdownGitBackend,
  markdownGitOptions,
  type MarkdownGitOptions,
} from '../../../backends/markdown-git/index.js';
import type { NoteStore } from '../../../kernel/backend.js';

/** Runs git in `cwd` with a fixed identity; `at` (epoch seconds) sets author and committer dates. */
export function git(cwd: string, args: string[], at?: number): string {
  const date = at !== undefined ? `@${at} +0000` : undefined;
  const result = spawnSync(
    'git',
    ['-c', 'user.name=Test', '-c', 'user.email=test@example.com', '-c', 'init.defaultBranch=main', ...args],
    {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, ...(date ? { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date } : {}) },
    },
  );
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

export function write(root: string, rel: string, text: string): void {
  const file = path.join(root, rel);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** `git log -1 --format=%at -- file` and the oldest `--follow --diff-filter=A` add, in seconds. */
export function gitTimes(root: string, rel: string): { created: number; updated: number } {
  const updated = Number(git(root, ['log', '-1', '--format=%at', '--', rel]));
  const adds = git(root, ['log', '--follow', '--diff-filter=A', '--format=%at', '--', rel]).split('\n');
  return { created: Number(adds[adds.length - 1]), updated };
}

export interface CapturedLogger {
  logger: Logger;
  lines: Array<{ level: number; msg: string; [key: string]: unknown }>;
  warnings(): Array<{ msg: string }>;
}

export function capturingLogger(): CapturedLogger {
  const lines: CapturedLogger['lines'] = [];
  const logger = pino(
    { level: 'debug' },
    { write: (text: string) => void lines.push(JSON.parse(text) as CapturedLogger['lines'][number]) },
  );
  return { logger, lines, warnings: () => lines.filter((l) => l.level === 40) };
}

export async function openStore(
  root: string,
  options: Partial<MarkdownGitOptions> = {},
  logger?: Logger,
): Promise<NoteStore> {
  const instance = await markdownGitBackend.create({
    folder: root,
    options: markdownGitOptions.parse(options),
    logger: logger ?? pino({ level: 'silent' }),
    readOnly: false,
  });
  return instance.store as NoteStore;
}

export const iso = (seconds: number) => new Date(seconds * 1000).toISOString();
