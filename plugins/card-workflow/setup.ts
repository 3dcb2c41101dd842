/**
 * Start-up of the plugin: options → paths → conventions, templates and mapping read once and
 * kept in memory. Every failure here is a `config_invalid` naming the key and the path.
 */
import fs from 'node:fs';
import { requireMember, type NoteStore } from '../../kernel/backend.js';
import { ConfigError, NotekernelError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import type { NoteService } from '../../kernel/notes.js';
import { requireVaultFolder, type VaultInfo } from '../../kernel/vault-info.js';
import { loadConventions, validateTitle } from './conventions.js';
import { loadMapping, mappingWarnings } from './mapping.js';
import { assertFile, OPTIONS_KEY, resolveOptions, type CardWorkflowOptions } from './options.js';
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
  const resolved = readableOutput(resolveOptions(ctx.options, requireVaultFolder(ctx.vault, 'card-workflow'), ctx.configDir), ctx);
  assertFile(resolved.conventionsFile, 'naming_conventions_file');
  assertFile(resolved.mappingFile, 'template_mapping_file');
  const conventions = loadConventions(resolved.conventionsFile);
  const templates = loadTemplates(resolved.templatesDir);
  const mapping = loadMapping(resolved.mappingFile);
  checkOutputDirectory(resolved.outputDir, (rel) => files.resolve(rel));

  for (const bad of templates.invalid) ctx.logger.warn({ template: bad.name, path: bad.path, reason: bad.error }, 'template skipped: malformed');
  for (const warning of mappingWarnings(mapping, templates)) ctx.logger.warn({ file: mapping.file }, warning);
  for (const example of conventions.rules.title.examples) {
    if (validateTitle(conventions, example).length) ctx.logger.warn({ file: conventions.file, example }, 'a naming-convention example breaks its own rules');
  }
  ctx.logger.debug({ templates: [...templates.templates.keys()], output: resolved.outputDir || '.' }, 'card workflow ready');

  return {
    conventions,
    templates,
    mapping,
    outputDirectory: resolved.outputDir,
    now,
    saveCard: createCardSaver({
      files,
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
    ctx.logger.debug({ output: CARD_FOLDER }, 'cards go to a folder the storage reads: it reads no notes at the vault root');
    return { ...resolved, outputDir: CARD_FOLDER };
  }
  if (!probe(resolved.outputDir)) {
    ctx.logger.warn({ output_directory: resolved.outputDir || '.', backend: ctx.vault.storageBackend }, `${OPTIONS_KEY}.output_directory: the storage reads no notes there, so saved cards will not be indexed or searchable (a folder such as "${CARD_FOLDER}" is read)`);
  }
  return resolved;
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
