/**
 * Shared pieces of the NoteStore contract: the subject every backend's `open()` returns, and
 * small helpers that look at the files under the vault root (only to check what a generic
 * client can observe: bytes, hashes, stray temp files).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { expect, it, type TestContext } from 'vitest';
import type { Capability, NoteStore } from '../../kernel/backend.js';
import type { ErrorCode } from '../../kernel/errors.js';
import type { Note } from '../../kernel/note.js';

export interface ContractSubject {
  store: NoteStore;
  /** The vault root, realpath'd. */
  root: string;
  capabilities: readonly Capability[];
  close(): Promise<void>;
}

export type OpenSubject = () => Promise<ContractSubject>;

export interface ContractOptions {
  /**
   * Titles of contract tests this backend is known to fail (each one a reported bug). They run
   * as `it.fails`, so the suite stays green and turns red the day the bug is fixed.
   */
  knownFailures?: readonly string[];
}

/** The atomic-write temp prefix; no operation may leave such a file behind. */
export const TEMP_PREFIX = '.nk-tmp-';

export type ContractTest = ((title: string, fn: (ctx: TestContext) => Promise<void>) => void) & {
  /** Declared known failures that name no test (a typo would silently disarm one). */
  unmatchedKnownFailures(): string[];
};

/** `it`, or `it.fails` for a title the backend declared as a known failure. */
export function contractTest(options: ContractOptions): ContractTest {
  const known = new Set(options.knownFailures ?? []);
  const used = new Set<string>();
  const test = (title: string, fn: (ctx: TestContext) => Promise<void>) => {
    if (known.has(title)) used.add(title);
    (known.has(title) ? it.fails : it)(title, fn);
  };
  return Object.assign(test, {
    unmatchedKnownFailures: () => [...known].filter((title) => !used.has(title)),
  });
}

export function sha256(data: string | Uint8Array): string {
  return `sha256:${createHash('sha256').update(data).digest('hex')}`;
}

export const HASH_FORMAT = /^sha256:[0-9a-f]{64}$/;

/** The file a note lives in (tolerates a backend that reports an absolute `path`). */
export function fileOf(root: string, note: Pick<Note, 'path'>): string {
  return path.resolve(root, note.path);
}

export async function bytesOf(root: string, note: Pick<Note, 'path'>): Promise<Buffer> {
  return fs.readFile(fileOf(root, note));
}

/** Every file or folder under `dir` whose name starts with the temp prefix. */
export async function tempFilesUnder(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (current: string): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(current, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(current, entry.name);
      if (entry.name.startsWith(TEMP_PREFIX)) found.push(path.relative(dir, full));
      if (entry.isDirectory()) await walk(full);
    }
  };
  await walk(dir);
  return found;
}

/** Awaits a rejection and checks its stable error code (and optionally its details). */
export async function expectCode(promise: Promise<unknown>, code: ErrorCode, details?: Record<string, unknown>): Promise<void> {
  await expect(promise).rejects.toMatchObject(details ? { code, details } : { code });
}

/** Calls a synchronous function and checks it throws the given error code. */
export function expectThrowsCode(fn: () => unknown, code: ErrorCode): void {
  let thrown: unknown;
  try {
    fn();
  } catch (err) {
    thrown = err;
  }
  expect(thrown, 'expected a throw').toBeDefined();
  expect(thrown).toMatchObject({ code });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Some backends stamp times with millisecond precision: wait so the next write is later. */
export const tick = () => sleep(15);
