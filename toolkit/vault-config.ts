/**
 * The per-vault `.flint-note/config.yml` of seed 000: which keys we honour, their defaults, and
 * the file `vault.init` writes. Keys the seed lists that we do not act on (`search`,
 * `vault_id`, `workspace_root`) are accepted and kept, so a flint-note vault's
 * own file opens unchanged.
 */
import { z } from 'zod';
import { closestName } from '../kernel/config/config-keys.js';

/** Backups must land in a hidden folder: anywhere else they would be indexed as notes. */
const backupPath = z
  .string()
  .min(1)
  .refine(
    (p) => !p.includes('\0') && !p.includes('\\') && !p.startsWith('/') && !/^[a-zA-Z]:/.test(p),
    'must be a relative path inside the vault',
  )
  .refine((p) => p.split('/').every((s) => s !== '..'), 'must not contain ".." segments')
  .refine(
    (p) => (p.split('/').find((s) => s !== '' && s !== '.') ?? '').startsWith('.'),
    'must be inside a hidden folder (e.g. .flint-note/backups), or backups would be indexed as notes',
  );

export const vaultConfigSchema = z
  .object({
    default_note_type: z.string().min(1).default('general'),
    metadata: z
      .object({
        validate_on_create: z.boolean().default(true),
        validate_on_update: z.boolean().default(true),
        strict_validation: z.boolean().default(false),
      })
      .loose()
      .prefault({}),
    note_types: z
      .object({
        // A note whose type has no folder yet creates it (false: refused, naming the types).
        auto_create_directories: z.boolean().default(true),
        // A type a note is written to gets a default _description.md when it has none.
        require_descriptions: z.boolean().default(true),
      })
      .loose()
      .prefault({}),
    deletion: z
      .object({
        require_confirmation: z.boolean().default(true),
        create_backups: z.boolean().default(true),
        backup_path: backupPath.default('.flint-note/backups'),
        allow_note_type_deletion: z.boolean().default(true),
        max_bulk_delete: z.number().int().min(1).default(10),
      })
      .loose()
      .prefault({}),
  })
  .loose();

export type VaultConfig = z.output<typeof vaultConfigSchema>;

/** Keys of seed 000's file we accept and keep without acting on them. */
const SEED_ONLY_KEYS = ['vault_id', 'workspace_root', 'search'];

/**
 * Keys the file has that neither we nor seed 000 know, each with the closest known one: kept
 * (the file stays seed 000's), but a misspelt `require_confirmaton` would silently do nothing.
 */
export function unknownVaultConfigKeys(data: unknown): Array<{ key: string; suggestion?: string }> {
  if (!data || typeof data !== 'object' || Array.isArray(data)) return [];
  const found: Array<{ key: string; suggestion?: string }> = [];
  const check = (value: object, known: string[], prefix: string) => {
    for (const key of Object.keys(value)) {
      if (known.includes(key)) continue;
      const suggestion = closestName(key, known);
      found.push({ key: `${prefix}${key}`, ...(suggestion ? { suggestion: `${prefix}${suggestion}` } : {}) });
    }
  };
  const record = data as Record<string, unknown>;
  check(record, [...Object.keys(vaultConfigSchema.shape), ...SEED_ONLY_KEYS], '');
  for (const section of ['metadata', 'note_types', 'deletion'] as const) {
    const value = record[section];
    const shape = vaultConfigSchema.shape[section].unwrap().shape;
    if (value && typeof value === 'object' && !Array.isArray(value)) check(value, Object.keys(shape), `${section}.`);
  }
  return found;
}

export const DEFAULT_VAULT_CONFIG: VaultConfig = vaultConfigSchema.parse({});

/** The file `vault.init` writes, naming the default type the config chose (general otherwise). */
export function defaultConfigText(defaultType?: string): string {
  if (!defaultType) return DEFAULT_CONFIG_TEXT;
  const value = /^[\p{L}\p{N}_-]+$/u.test(defaultType) ? defaultType : JSON.stringify(defaultType);
  return DEFAULT_CONFIG_TEXT.replace(/^default_note_type: general$/m, `default_note_type: ${value}`);
}

export const DEFAULT_CONFIG_TEXT = `# Per-vault configuration (seed 000's .flint-note/config.yml). Edits apply on the next call.
default_note_type: general
metadata:
  validate_on_create: true
  validate_on_update: true
  strict_validation: false # true: metadata fields the type's schema does not define are errors, not warnings
note_types:
  auto_create_directories: true # false: a note of a type with no folder is refused (create_note_type first)
  require_descriptions: true # a type created by its first note gets a default _description.md
deletion:
  require_confirmation: true # delete_note, bulk_delete_notes and delete_note_type need confirm: true
  create_backups: true # copy notes under backup_path before deleting them
  backup_path: .flint-note/backups
  allow_note_type_deletion: true
  max_bulk_delete: 10 # most notes one bulk_delete_notes or delete_note_type may delete
`;
