/**
 * `notekernel tools`: the tools a profile serves, with their JSON schemas. The list depends on
 * the profile and config, not on a vault's notes, so with no vault given or registered it is
 * read from an empty throw-away folder instead of failing.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Command } from 'commander';
import { NotekernelError } from '../../../kernel/errors.js';
import { openFromOptions, withCommonOptions, type CommonOptions } from '../open.js';
import { emit, withJsonOption, type OutputOptions } from '../output/print.js';
import { renderTools } from '../output/reports.js';

export function addToolsCommand(program: Command): void {
  withJsonOption(
    withCommonOptions(
      program
        .command('tools')
        .description('list the tools a profile serves (--json: with their JSON schemas; no vault needed)'),
    ),
  ).action(async (options: CommonOptions & OutputOptions) => {
    const opened = await openFromOptions(options, { defaultLogLevel: 'warn' }).catch((err: unknown) => {
      if (err instanceof NotekernelError && err.code === 'not_found' && /^No vault given/.test(err.message))
        return undefined;
      throw err;
    });
    if (opened) {
      print(options, opened.vault.tools());
      await opened.kernel.close();
      return;
    }
    const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'notekernel-tools-'));
    try {
      const { kernel, vault } = await openFromOptions({ ...options, vault: scratch }, { defaultLogLevel: 'warn' });
      print(options, vault.tools());
      await kernel.close();
    } finally {
      await fs.rm(scratch, { recursive: true, force: true });
    }
  });
}

function print(options: OutputOptions, tools: ReadonlyArray<{ name: string; description?: string }>): void {
  emit(options, tools, renderTools);
}
