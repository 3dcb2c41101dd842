/**
 * Shared pieces of the NoteStore contract: the subject every backend's `open()` returns, and
 * the view of another program (an editor, another device) that a backend's test may give: the
 * suite observes and changes the store only through the NoteStore contract and that view.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it, type TestContext } from 'vitest';
import {
  canonicalCapabilities,
  type Capability,
  type CapabilityName,
  type NoteStore,
  type Extension,
} from '../kernel/backend.js';
import type { ErrorCode } from '../kernel/errors.js';
import type { Note } from '../kernel/note.js';

export interface ContractSubject {
  store: NoteStore;
  /** The backend's declared capabilities (`definition.capabilities`; deprecated names are read as the new ones). */
  capabilities: readonly CapabilityName[];
  /** Its declared store extensions (`definition.extensions`): when given, each member is checked to exist exactly when declared. */
  extensions?: readonly Extension[];
  /** The vault's folder, realpath'd, for a backend that keeps one (capability `files` needs it). */
  root?: string;
  /**
   * How another program sees and changes a stored note (a file on disk, a note on the remote
   * service). Tests of external edits and of stored bytes run only when it is given.
   */
  outside?: OutsideWorld;
  close(): Promise<void>;
}

/** Another program's view of the store's truth. */
export interface OutsideWorld {
  /** The note's stored bytes, as its contentHash covers them. */
  bytes(note: Pick<Note, 'id' | 'path'>): Promise<Buffer>;
  /** Stores these bytes for the note, as an editor or another device would (creating it if gone). */
  replace(note: Pick<Note, 'id' | 'path'>, bytes: Uint8Array): Promise<void>;
  append(note: Pick<Note, 'id' | 'path'>, text: string): Promise<void>;
  remove(note: Pick<Note, 'id' | 'path'>): Promise<void>;
  exists(note: Pick<Note, 'id' | 'path'>): Promise<boolean>;
  /** Leftovers of interrupted writes (temp files); none may outlive the store. */
  leftovers(): Promise<string[]>;
}

/** The outside world of a store whose notes are files under `root` (`Note.path` names the file). */
export function filesOutside(root: string): OutsideWorld {
  const file = (note: Pick<Note, 'path'>) => fileOf(root, note);
  return {
    bytes: (note) => fs.readFile(file(note)),
    replace: (note, bytes) => fs.writeFile(file(note), bytes),
    append: (note, text) => fs.appendFile(file(note), text),
    remove: (note) => fs.rm(file(note)),
    exists: (note) =>
      fs.access(file(note)).then(
        () => true,
        () => false,
      ),
    leftovers: () => tempFilesUnder(root),
  };
}

export type OpenSubject = () => Promise<ContractSubject>;

/** Whether `capabilities` (as a backend declares them, old names included) hold `capability`. */
export function declares(capabilities: readonly CapabilityName[], capability: Capability): boolean {
  return canonicalCapabilities(capabilities).includes(capability);
}

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
  if (note.path === undefined) throw new Error('a file backend must give every note its path');
  return path.resolve(root, note.path);
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
export async function expectCode(
  promise: Promise<unknown>,
  code: ErrorCode,
  details?: Record<string, unknown>,
): Promise<void> {
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

/** A fresh, empty folder for a test (symlinks resolved, as a backend sees its folder). */
export async function tempDir(prefix = 'nk-contract-'): Promise<string> {
  return fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix)));
}

export async function removeDir(dir: string): Promise<void> {
  await fs.rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}
