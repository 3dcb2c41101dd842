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
  const resolved = resolveOptions(ctx.options, requireVaultFolder(ctx.vault, 'card-workflow'), ctx.configDir);
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
