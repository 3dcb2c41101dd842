/**
 * The global vault registry (seed 000's multi-vault system): which vaults exist, by id, and
 * which one is current. One small YAML file, re-read on every call (another process may have
 * changed it) and replaced atomically on every change.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import yaml from 'js-yaml';
import { z } from 'zod';
import { ConfigError, ConflictError, NotFoundError, ValidationError } from '../../kernel/errors.js';
import { writeFileAtomic } from '../../toolkit/files/atomic-write.js';
import { loadYamlBounded } from '../../toolkit/markdown/frontmatter.js';
import { flintNoteRegistryFiles } from './config-dir.js';
import { readFlintNoteRegistry } from './flint-note-import.js';

export const VAULT_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const entrySchema = z.object({
  name: z.string(),
  path: z.string(),
  description: z.string().optional(),
  created: z.string().optional(),
  last_used: z.string().optional(),
});

const fileSchema = z.object({
  vaults: z.record(z.string(), entrySchema).default({}),
  current_vault: z.string().nullable().optional(),
  // Seed 000's global config: `auto_switch_vault: true` makes a call naming another vault by
  // vault_id switch the current vault to it (default: served once, current vault unchanged).
  mcp_server: z.object({ auto_switch_vault: z.boolean().optional() }).loose().optional(),
  // flint-note's registry, once imported (flint-note-import.ts): its file, when, what was taken.
  imported_from_flint_note: z
    .object({
      file: z.string(),
      at: z.string(),
      vaults: z.array(z.string()).default([]),
      skipped: z.array(z.string()).optional(),
    })
    .loose()
    .optional(),
});

export interface VaultEntry {
  id: string;
  name: string;
  path: string;
  description?: string;
  created?: string;
  last_used?: string;
}

type RegistryFile = z.infer<typeof fileSchema>;

export class VaultRegistry {
  readonly file: string;
  private imported?: Promise<void>;

  /** `importFrom`: flint-note's registry files, read once into this one (none: no import). */
  constructor(
    readonly dir: string,
    private readonly importFrom: readonly string[] = flintNoteRegistryFiles(),
  ) {
    this.file = path.join(dir, 'vaults.yml');
  }

  async list(): Promise<VaultEntry[]> {
    const data = await this.read();
    return Object.entries(data.vaults).map(([id, entry]) => ({ id, ...entry }));
  }

  async get(id: string): Promise<VaultEntry | undefined> {
    return (await this.list()).find((v) => v.id === id);
  }

  async require(id: string): Promise<VaultEntry> {
    const entry = await this.get(id);
    if (entry) return entry;
    const ids = (await this.list()).map((v) => v.id);
    throw new NotFoundError(`Vault '${id}' not found. Available vaults: ${ids.join(', ') || '(none)'}`, {
      vault_id: id,
      available: ids,
    });
  }

  async findByPath(absolutePath: string): Promise<VaultEntry | undefined> {
    return (await this.list()).find((v) => path.resolve(v.path) === absolutePath);
  }

  /** Seed 000's `mcp_server.auto_switch_vault`: false unless the registry file turns it on. */
  async autoSwitch(): Promise<boolean> {
    return (await this.read()).mcp_server?.auto_switch_vault === true;
  }

  async currentId(): Promise<string | undefined> {
    return (await this.read()).current_vault ?? undefined;
  }

  async add(entry: { id: string; name: string; path: string; description?: string }): Promise<VaultEntry> {
    if (!VAULT_ID.test(entry.id)) {
      throw new ValidationError(
        `Invalid vault id "${entry.id}": use lowercase letters, digits, "_" and "-" (at most 64).`,
        { field: 'vault_id' },
      );
    }
    return this.change((data) => {
      if (data.vaults[entry.id]) throw new ConflictError(`Vault '${entry.id}' already exists.`, { vault_id: entry.id });
      const now = new Date().toISOString();
      const record = {
        name: entry.name,
        path: path.resolve(entry.path),
        ...(entry.description !== undefined ? { description: entry.description } : {}),
        created: now,
        last_used: now,
      };
      data.vaults[entry.id] = record;
      if (!data.current_vault) data.current_vault = entry.id;
      return { id: entry.id, ...record };
    });
  }

  async update(id: string, change: { name?: string; description?: string }): Promise<VaultEntry> {
    await this.require(id);
    return this.change((data) => {
      const entry = data.vaults[id] as RegistryFile['vaults'][string];
      if (change.name !== undefined) entry.name = change.name;
      if (change.description !== undefined) entry.description = change.description;
      return { id, ...entry };
    });
  }

  async remove(id: string): Promise<VaultEntry> {
    const removed = await this.require(id);
    await this.change((data) => {
      delete data.vaults[id];
      if (data.current_vault === id) data.current_vault = Object.keys(data.vaults)[0] ?? null;
    });
    return removed;
  }

  async setCurrent(id: string): Promise<VaultEntry> {
    await this.require(id);
    return this.change((data) => {
      data.current_vault = id;
      const entry = data.vaults[id] as RegistryFile['vaults'][string];
      entry.last_used = new Date().toISOString();
      return { id, ...entry };
    });
  }

  private async read(): Promise<RegistryFile> {
    // Best effort: an import that cannot write (a read-only config folder) leaves ours as it is,
    // and our own next write fails with its own error.
    this.imported ??= this.importFlintNote().catch(() => undefined);
    await this.imported;
    return this.readFile();
  }

  /** flint-note's vaults copied in once per registry file (flint-note-import.ts); never theirs overwritten, nor ours. */
  private async importFlintNote(): Promise<void> {
    if (this.importFrom.length === 0) return;
    const data = await this.readFile();
    if (data.imported_from_flint_note) return;
    const source = await readFlintNoteRegistry(this.importFrom, VAULT_ID);
    if (!source) return;
    const taken: string[] = [];
    for (const { id, ...entry } of source.vaults) {
      if (data.vaults[id]) continue;
      data.vaults[id] = entry;
      taken.push(id);
    }
    if (!data.current_vault && source.current && taken.includes(source.current)) data.current_vault = source.current;
    data.imported_from_flint_note = {
      file: source.file,
      at: new Date().toISOString(),
      vaults: taken,
      ...(source.skipped.length ? { skipped: source.skipped } : {}),
    };
    await fs.mkdir(this.dir, { recursive: true });
    await writeFileAtomic(this.file, yaml.dump(data, { schema: yaml.CORE_SCHEMA, lineWidth: -1 }));
  }

  private async readFile(): Promise<RegistryFile> {
    let text: string;
    try {
      text = await fs.readFile(this.file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { vaults: {}, current_vault: null };
      throw err;
    }
    let raw: unknown;
    try {
      raw = loadYamlBounded(text);
    } catch (err) {
      throw new ConfigError(`${this.file}: not valid YAML: ${(err as Error).message.split('\n')[0]}`, {
        file: this.file,
      });
    }
    const parsed = fileSchema.safeParse(raw ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new ConfigError(`${this.file}: ${issue?.path.join('.') || '(root)'}: ${issue?.message}`, {
        file: this.file,
      });
    }
    return parsed.data;
  }

  private async change<T>(fn: (data: RegistryFile) => T): Promise<T> {
    const data = await this.read();
    const result = fn(data);
    await fs.mkdir(this.dir, { recursive: true });
    await writeFileAtomic(this.file, yaml.dump(data, { schema: yaml.CORE_SCHEMA, lineWidth: -1 }));
    return result;
  }
}
