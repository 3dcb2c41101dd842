/**
 * The backend contract: a definition whose capabilities and extensions are static (known before
 * any I/O, so the kernel refuses a plugin at start-up) and an async factory. Optional members exist
 * exactly when declared (CAPABILITY_MEMBERS, checked at every open); asking for a missing one
 * throws CapabilityError, never a silent no-op. The contracts themselves: note-store.ts, search-index.ts.
 */
import type { z } from 'zod';
import type { Logger } from './logger.js';
import type { FaultReporter } from './faults.js';
import { CapabilityError } from './errors.js';
import type { ProgressReporter } from './progress.js';
import type { NoteStore } from './note-store.js';
import type { SearchIndex } from './search-index.js';

export * from './note-store.js';
export * from './search-index.js';

/**
 * What a vault offers, named for what it means to a plugin whatever keeps the notes (a folder, a
 * database, a remote service). The kernel refuses at start-up a plugin that `requires` one missing.
 */
export const CAPABILITIES = {
  'typed-notes': 'every note has a type the store keeps, lists and moves notes between (listTypes/move)',
  'free-metadata': 'arbitrary metadata (nested values, any key) and free-form tags are stored with each note',
  files: 'raw, vault-contained file access (files) for plugin-owned files',
  watch: 'changes made outside the vault (an editor, another device) are reported while running (watch)',
  journal: 'multi-note operations are journalled: finished or rolled back after a crash (journal)',
  'index-db': 'plugins may keep their own tables in the backend index (indexDb)',
  'git-history': 'timestamps derived from git history',
  'remote-sync': 'notes are synchronised with a remote service',
  'full-text': 'ranked keyword search with snippets, filtered by type (search)',
  regex: 'search by regular expression (SearchQuery.regex)',
  'metadata-query':
    'search filtered by metadata predicates, creation/update windows and content phrases, sorted by any field',
  sql: 'read-only SQL over the index (sql)',
  vectors: 'semantic (vector) search: SearchQuery.mode semantic and hybrid',
} as const;

export type Capability = keyof typeof CAPABILITIES;

/**
 * Names from when every store kept files (decision 042), still read as the new name in a backend's
 * `capabilities` and a plugin's or tool's `requires` until a future major version.
 * @deprecated Name the capability by its key in CAPABILITIES.
 */
export const DEPRECATED_CAPABILITIES = {
  types: 'typed-notes',
  frontmatter: 'free-metadata',
} as const satisfies Record<string, Capability>;

/** @deprecated A name of DEPRECATED_CAPABILITIES. */
export type DeprecatedCapability = keyof typeof DEPRECATED_CAPABILITIES;

/** A capability as declared or required: its name, or a deprecated one. */
export type CapabilityName = Capability | DeprecatedCapability;

/** The capability a (possibly deprecated) name stands for. */
export function canonicalCapability(name: CapabilityName): Capability {
  return (DEPRECATED_CAPABILITIES as Record<string, Capability>)[name] ?? (name as Capability);
}

/** Each name read as its current capability, duplicates dropped. */
export function canonicalCapabilities(names: readonly CapabilityName[]): Capability[] {
  return [...new Set(names.map(canonicalCapability))];
}

/** Which part of a vault serves each capability: its store, or its search index. */
export const CAPABILITY_ROLE: Readonly<Record<Capability, 'storage' | 'search'>> = {
  'typed-notes': 'storage',
  'free-metadata': 'storage',
  files: 'storage',
  watch: 'storage',
  journal: 'storage',
  'index-db': 'storage',
  'git-history': 'storage',
  'remote-sync': 'storage',
  'full-text': 'search',
  regex: 'search',
  'metadata-query': 'search',
  sql: 'search',
  vectors: 'search',
};

/**
 * Optional members no plugin needs to require: callers do without them (the fallback named here);
 * a backend that has them does the work cheaper, sooner or at all, and declares them so its
 * definition shows its shape.
 */
export const EXTENSIONS = {
  refresh:
    'refresh(): re-reads what changed behind the store (files edited while it was closed); without it there is nothing to re-read',
  'batch-update':
    'updateMany(): several compare-and-swaps share locks and one index transaction; without it, one update after another',
  'index-pass':
    "observeIndexPass(): derived indexes (links, tags) are fed from the store's own index pass; without it they read the notes themselves",
  'snapshot-token':
    'snapshotToken(): a cheap token that changes with any note, so a derived index skips an unchanged full check',
  'early-reads':
    'whenReadable(): index reads may answer while the opening refresh catches up; without it they wait for it',
  reconcile:
    'SearchIndex.reconcile(): an index apart from its store catches up with it at every open; without it the index is part of its store',
  'background-work':
    'SearchIndex.finishBackground(): work the index does behind its answers (embedding) can be waited for; without it there is none',
} as const;

export type Extension = keyof typeof EXTENSIONS;

/**
 * Where a backend keeps a vault: `required`, a folder on this machine (the kernel resolves it and
 * refuses a missing one); `optional`, a folder if given (a cache); `none` (in memory, remote), a
 * vault named by its id alone.
 */
export type BackendFolder = 'required' | 'optional' | 'none';

export type BackendKind = 'storage' | 'search' | 'both';

export interface BackendContext<O> {
  /** Absolute, symlinks resolved: always set for `folder: 'required'`, never for `none`. */
  folder?: string;
  options: O;
  logger: Logger;
  readOnly: boolean;
  progress?: ProgressReporter;
  /** Where background work reports what it cannot do (faults.ts); absent outside a kernel. */
  faults?: FaultReporter;
  /**
   * False when a separate search backend answers the vault's searches: a store that keeps a search
   * index beside its notes (fs-sqlite's full-text rows) may then keep none. Absent (read as true)
   * outside a kernel.
   */
  servesSearch?: boolean;
}

export interface BackendInstance {
  store?: NoteStore;
  search?: SearchIndex;
  /** Why the backend can only read (its folder cannot be written); the vault is then served read-only. */
  readOnly?: string;
}

/** A setting read from outside the config file (an environment variable), as `serve --print-config-vars` shows it. */
export interface BackendSetting {
  name: string;
  purpose: string;
  /** The effective value; undefined when unset and without a default. */
  value?: string;
  source: 'environment' | '.env' | 'config' | 'default' | 'unset';
  /** Shown masked. */
  secret?: boolean;
  /** Opening fails without it. */
  required?: boolean;
}

export interface BackendDefinition<O = unknown> {
  id: string;
  kind: BackendKind;
  description: string;
  folder: BackendFolder;
  /** What it offers (CAPABILITIES; a deprecated name is read as its new one). */
  capabilities: readonly CapabilityName[];
  /** The EXTENSIONS it implements, checked at every open; left out (and unchecked) by definitions older than them. */
  extensions?: readonly Extension[];
  options: z.ZodType<O>;
  create(ctx: BackendContext<O>): Promise<BackendInstance>;
  /** The settings it reads beyond `options` (environment variables), with their effective values. */
  settings?(options: O): BackendSetting[];
}

export function defineBackend<O>(definition: BackendDefinition<O>): BackendDefinition<O> {
  return definition;
}

/**
 * Every optional member of NoteStore and SearchIndex and what declares it. `exactly`: present when,
 * and only when, declared; `may`: present only where declared (a default type when options set one).
 */
export const CAPABILITY_MEMBERS: ReadonlyArray<
  { on: 'store' | 'search'; member: string; presence: 'exactly' | 'may' } & (
    | { capability: Capability }
    | { extension: Extension }
  )
> = [
  { on: 'store', member: 'listTypes', capability: 'typed-notes', presence: 'exactly' },
  { on: 'store', member: 'move', capability: 'typed-notes', presence: 'exactly' },
  { on: 'store', member: 'defaultType', capability: 'typed-notes', presence: 'may' },
  { on: 'store', member: 'files', capability: 'files', presence: 'exactly' },
  { on: 'store', member: 'readsNoteAt', capability: 'files', presence: 'may' },
  { on: 'store', member: 'watch', capability: 'watch', presence: 'exactly' },
  { on: 'store', member: 'journal', capability: 'journal', presence: 'exactly' },
  { on: 'store', member: 'indexDb', capability: 'index-db', presence: 'exactly' },
  { on: 'store', member: 'remote', capability: 'remote-sync', presence: 'exactly' },
  { on: 'store', member: 'refresh', extension: 'refresh', presence: 'exactly' },
  { on: 'store', member: 'updateMany', extension: 'batch-update', presence: 'exactly' },
  { on: 'store', member: 'observeIndexPass', extension: 'index-pass', presence: 'exactly' },
  { on: 'store', member: 'snapshotToken', extension: 'snapshot-token', presence: 'exactly' },
  { on: 'store', member: 'whenReadable', extension: 'early-reads', presence: 'exactly' },
  { on: 'search', member: 'sql', capability: 'sql', presence: 'exactly' },
  { on: 'search', member: 'reconcile', extension: 'reconcile', presence: 'exactly' },
  { on: 'search', member: 'finishBackground', extension: 'background-work', presence: 'exactly' },
];

/** The folder of a backend declared `folder: 'required'` (the kernel has checked it is there). */
export function requireFolder<O>(ctx: BackendContext<O>, backendId: string): string {
  if (ctx.folder === undefined)
    throw new CapabilityError(`Backend "${backendId}" keeps notes in a folder: give one (--vault DIR).`, {
      backend: backendId,
    });
  return ctx.folder;
}

/** Every mismatch between what a definition declares and the members its instance has. */
export function capabilityShapeProblems(definition: BackendDefinition<unknown>, instance: BackendInstance): string[] {
  const declared = new Set<string>(canonicalCapabilities(definition.capabilities));
  const extensions = definition.extensions ? new Set<string>(definition.extensions) : undefined;
  const problems: string[] = [];
  for (const entry of CAPABILITY_MEMBERS) {
    const target = instance[entry.on] as unknown as Record<string, unknown> | undefined;
    if (!target) continue;
    const [kind, name, names] =
      'capability' in entry ? ['capability', entry.capability, declared] : ['extension', entry.extension, extensions];
    if (!names) continue;
    const present = target[entry.member] !== undefined;
    if (present && !names.has(name))
      problems.push(`${entry.on}.${entry.member} exists but ${kind} "${name}" is not declared`);
    if (!present && names.has(name) && entry.presence === 'exactly')
      problems.push(`${kind} "${name}" is declared but ${entry.on}.${entry.member} is missing`);
  }
  return problems;
}

/** Returns the member, or throws a CapabilityError naming the backend and the capability. */
export function requireMember<T>(value: T | undefined, backendId: string, capability: Capability, needer: string): T {
  if (value === undefined) {
    throw new CapabilityError(
      `${needer} needs capability "${capability}" (${CAPABILITIES[capability]}), which backend "${backendId}" does not provide.`,
      { backend: backendId, capability, needed_by: needer },
    );
  }
  return value;
}
