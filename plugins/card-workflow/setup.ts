/**
 * Start-up of the plugin: options → paths → conventions, templates and mapping read once and
 * kept in memory. Every failure here is a `config_invalid` naming the key and the path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { requireMember, type NoteStore, type VaultFiles } from '../../kernel/backend.js';
import { createVaultFiles } from '../../toolkit/files/vault-files.js';
import { WriteLocks } from '../../toolkit/files/write-locks.js';
import { ConfigError, NotekernelError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { NoteService } from '../../kernel/notes.js';
import type { VaultInfo } from '../../kernel/vault-info.js';
import { requireVaultFolder } from '../../toolkit/vault-folder.js';
import { loadConventions, validateTitle } from './conventions.js';
import { loadMapping, mappingWarnings } from './mapping.js';
import { assertFile, OPTIONS_KEY, resolveOptions, type CardWorkflowOptions } from './options.js';
import { createRecordStore, RECORDS_DIR } from './records.js';
import { createCardSaver } from './save.js';
import { loadTemplates } from './templates.js';
import type { CardWorkflow } from './workflow.js';

export interface SetupContext {
  options: CardWorkflowOptions;
  vault: VaultInfo;
  store: NoteStore;
  notes: NoteService;
  logger: Logger;
  configDir?: string;
}

export function createCardWorkflow(ctx: SetupContext, now: () => Date = () => new Date()): CardWorkflow {
  const files = requireMember(ctx.store.files, ctx.vault.storageBackend, 'files', 'card-workflow');
  const vaultRoot = requireVaultFolder(ctx.vault, 'card-workflow');
  const options = resolveOptions(ctx.options, vaultRoot, ctx.configDir);
  const resolved = options.externalDir ? options : readableOutput(options, ctx);
  assertFile(resolved.conventionsFile, 'naming_conventions_file');
  assertFile(resolved.mappingFile, 'template_mapping_file');
  const conventions = loadConventions(resolved.conventionsFile);
  const templates = loadTemplates(resolved.templatesDir);
  const mapping = loadMapping(resolved.mappingFile);
  checkOutputDirectory(resolved.outputDir, (rel) => files.resolve(rel));
  const external = resolved.externalDir ? externalOutput(resolved.externalDir, vaultRoot) : undefined;
  if (external)
    ctx.logger.info(
      { output_directory: external.root },
      'cards are saved outside the vault, in the output directory: they are files there, not notes of the vault',
    );

  for (const bad of templates.invalid)
    ctx.logger.warn({ template: bad.name, path: bad.path, reason: bad.error }, 'template skipped: malformed');
  for (const warning of mappingWarnings(mapping, templates)) ctx.logger.warn({ file: mapping.file }, warning);
  if (conventions.notice) ctx.logger.warn({ file: conventions.file }, conventions.notice);
  for (const example of conventions.rules.title.examples) {
    if (validateTitle(conventions, example).length)
      ctx.logger.warn({ file: conventions.file, example }, 'a naming-convention example breaks its own rules');
  }
  ctx.logger.debug(
    { templates: [...templates.templates.keys()], output: resolved.outputDir || '.' },
    'card workflow ready',
  );

  return {
    conventions,
    templates,
    mapping,
    outputDirectory: resolved.outputDir,
    cardFiles: external?.files ?? files,
    ...(external ? { externalOutput: external.root } : {}),
    records: createRecordStore({ files, readOnly: ctx.vault.readOnly, logger: ctx.logger, now }),
    now,
    dispose: () => external?.locks.close(),
    saveCard: createCardSaver({
      files: external?.files ?? files,
      ...(external ? { external: external.root } : {}),
      store: ctx.store,
      notes: ctx.notes,
      outputDir: resolved.outputDir,
      backendName: ctx.vault.storageBackend,
      createBackup: resolved.createBackup,
      sanitize: resolved.sanitize,
    }),
  };
}

/** Where cards go when output_directory is unset and the vault root holds no notes (flint). */
export const CARD_FOLDER = 'cards';

/**
 * Cards are notes: without output_directory they go to the vault root (the seed's default)
 * when the store reads notes there, else to a `cards` folder it does read (flint's typed
 * layout: a `cards` note type). An output_directory the store does not read is warned about once.
 */
function readableOutput<T extends { outputDir: string }>(resolved: T, ctx: SetupContext): T {
  const reads = ctx.store.readsNoteAt?.bind(ctx.store);
  if (!reads) return resolved;
  const probe = (dir: string) => reads(dir ? `${dir}/card.md` : 'card.md');
  if (ctx.options.output_directory === undefined && !probe(resolved.outputDir) && probe(CARD_FOLDER)) {
    ctx.logger.debug(
      { output: CARD_FOLDER },
      'cards go to a folder the storage reads: it reads no notes at the vault root',
    );
    return { ...resolved, outputDir: CARD_FOLDER };
  }
  if (!probe(resolved.outputDir)) {
    ctx.logger.warn(
      { output_directory: resolved.outputDir || '.', backend: ctx.vault.storageBackend },
      `${OPTIONS_KEY}.output_directory: the storage reads no notes there, so saved cards will not be indexed or searchable (a folder such as "${CARD_FOLDER}" is read)`,
    );
  }
  return resolved;
}

/**
 * An output_directory outside the vault, written as an absolute or ~/ path (seed 001's
 * `~/zettelkasten/cards`): the one folder outside the vault save_card writes to, through the same
 * contained, locked, atomic file access as the vault's own files (its lock files stay in the vault).
 */
function externalOutput(root: string, vaultRoot: string): { root: string; files: VaultFiles; locks: WriteLocks } {
  const key = `${OPTIONS_KEY}.output_directory`;
  if (fs.existsSync(root) && !fs.statSync(root).isDirectory())
    throw new ConfigError(`${key}: ${root} exists and is not a directory`, { key, path: root });
  const locks = new WriteLocks(root, path.join(vaultRoot, RECORDS_DIR, 'locks'));
  return { root, files: createVaultFiles(root, locks), locks };
}

/** The output folder may not exist yet (save_card creates it), but it must not lead out of the vault. */
function checkOutputDirectory(outputDir: string, resolve: (rel: string) => string): void {
  if (!outputDir) return;
  const key = `${OPTIONS_KEY}.output_directory`;
  let absolute: string;
  try {
    absolute = resolve(outputDir);
  } catch (err) {
    const reason = err instanceof NotekernelError ? err.message : String(err);
    throw new ConfigError(`${key}: "${outputDir}" cannot be used: ${reason}`, { key, path: outputDir });
  }
  if (fs.existsSync(absolute) && !fs.statSync(absolute).isDirectory()) {
    throw new ConfigError(`${key}: ${absolute} exists and is not a directory`, { key, path: absolute });
  }
}
