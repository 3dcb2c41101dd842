/**
 * card-workflow options: seed 001's config.yaml keys, given under `plugins.card-workflow` in a
 * notekernel config. Paths are resolved here, once, at start-up; anything that does not exist
 * or leaves the vault fails start-up naming the key and the path.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { packageRoot } from '../../toolkit/package-root.js';
import { ConfigError } from '../../kernel/errors.js';
import { isInside } from '../../toolkit/files/paths.js';

export const cardWorkflowOptions = z
  .object({
    templates_directory: z
      .string()
      .min(1)
      .optional()
      .describe('folder of .md templates (absolute, ~/…, or relative to the vault); the shipped defaults when omitted'),
    naming_conventions_file: z
      .string()
      .min(1)
      .optional()
      .describe('markdown file: YAML frontmatter with the title rules, body with the conventions shown to the agent'),
    template_mapping_file: z
      .string()
      .min(1)
      .optional()
      .describe('YAML file: default template and the tag / title-keyword rules per template'),
    output_directory: z
      .string()
      .optional()
      .describe(
        "folder where save_card writes cards: vault-relative, or absolute / ~/… (a folder outside the vault is allowed as written, seed 001's ~/zettelkasten/cards); the vault root when omitted",
      ),
    file_operations: z
      .object({
        create_backup: z
          .boolean()
          .optional()
          .describe(
            'true (default): an existing card is copied to <name>.backup before it is replaced; false: saving over it is refused',
          ),
        filename_sanitization: z
          .boolean()
          .optional()
          .describe('true (default): unsafe characters are removed from filenames; false: such filenames are refused'),
      })
      .strict()
      .optional(),
  })
  .strict();

export type CardWorkflowOptions = z.infer<typeof cardWorkflowOptions>;

export interface ResolvedCardOptions {
  templatesDir: string;
  conventionsFile: string;
  mappingFile: string;
  /** Vault-relative, `/`-separated; '' is the vault root (and is '' when the output is outside the vault). */
  outputDir: string;
  /** An absolute or `~/` output_directory outside the vault: the one folder outside it cards are written to. */
  externalDir?: string;
  createBackup: boolean;
  sanitize: boolean;
}

/** Where these options sit in a config file, for error messages. */
export const OPTIONS_KEY = 'plugins.card-workflow';

/** Where the shipped defaults live: in the package's plugins/ folder (dist/ has code only). */
export function defaultsDir(): string {
  const candidates = [path.join(packageRoot(), 'plugins', 'card-workflow', 'defaults')];
  const found = candidates.find((dir) => fs.existsSync(path.join(dir, 'templates')));
  if (!found)
    throw new ConfigError(`card-workflow: the shipped defaults are missing (looked in ${candidates.join(', ')})`, {
      paths: candidates,
    });
  return found;
}

/** `~/x` → home, absolute as is, anything else relative to `base`. */
export function resolveUserPath(value: string, base: string): string {
  if (value === '~' || value.startsWith('~/')) return path.join(os.homedir(), value.slice(1));
  return path.resolve(base, value);
}

/**
 * Rule and template paths resolve against the config file's folder (as the seed's config.yaml
 * implies), else the vault root; the output folder is always vault-relative.
 */
export function resolveOptions(
  options: CardWorkflowOptions,
  vaultRoot: string,
  configDir?: string,
): ResolvedCardOptions {
  const defaults =
    options.templates_directory && options.naming_conventions_file && options.template_mapping_file
      ? ''
      : defaultsDir();
  const base = configDir ?? vaultRoot;
  const pick = (value: string | undefined, fallback: string) =>
    value ? resolveUserPath(value, base) : path.join(defaults, fallback);
  return {
    templatesDir: pick(options.templates_directory, 'templates'),
    conventionsFile: pick(options.naming_conventions_file, 'naming-conventions.md'),
    mappingFile: pick(options.template_mapping_file, 'template-mapping.yaml'),
    ...outputDirectory(options.output_directory, vaultRoot),
    createBackup: options.file_operations?.create_backup ?? true,
    sanitize: options.file_operations?.filename_sanitization ?? true,
  };
}

function outputDirectory(value: string | undefined, vaultRoot: string): { outputDir: string; externalDir?: string } {
  if (value === undefined || value.trim() === '' || value.trim() === '.') return { outputDir: '' };
  const key = `${OPTIONS_KEY}.output_directory`;
  const fail = (reason: string) => new ConfigError(`${key}: "${value}" ${reason}`, { key, path: value, reason });
  if (value.includes('\0')) throw fail('contains a NUL byte');
  const written = value.trim().replace(/\\/g, '/');
  const absolute = resolveUserPath(written, vaultRoot);
  if (!isInside(vaultRoot, absolute)) {
    // Written as a place of its own (absolute or ~/), as seed 001's config does: cards go there.
    if (path.isAbsolute(written) || written === '~' || written.startsWith('~/')) {
      const real = realpathIfExists(absolute);
      if (!isInside(vaultRoot, real)) return { outputDir: '', externalDir: real };
      return { outputDir: relativeInVault(vaultRoot, real, fail) };
    }
    throw fail(
      `is outside the vault (${vaultRoot}); a relative output_directory is a folder of the vault. For a folder elsewhere, write it as an absolute or ~/ path`,
    );
  }
  return { outputDir: relativeInVault(vaultRoot, absolute, fail) };
}

function relativeInVault(vaultRoot: string, absolute: string, fail: (reason: string) => Error): string {
  const rel = path.relative(vaultRoot, absolute).split(path.sep).filter(Boolean);
  if (rel.some((segment) => segment.startsWith('.') || segment === 'node_modules')) {
    throw fail('is a hidden or reserved folder, which the index skips; saved cards would not be notes');
  }
  return rel.join('/');
}

function realpathIfExists(absolute: string): string {
  try {
    return fs.realpathSync(absolute);
  } catch {
    return absolute;
  }
}

/** Start-up check of a file option: it must exist and be a regular file. */
export function assertFile(file: string, option: string): void {
  const key = `${OPTIONS_KEY}.${option}`;
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new ConfigError(`${key}: file not found: ${file}`, { key, path: file });
  }
  if (!stat.isFile()) throw new ConfigError(`${key}: not a file: ${file}`, { key, path: file });
}
