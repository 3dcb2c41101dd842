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

export function addToolsCommand(program: Command): void {
  withCommonOptions(program.command('tools').description('list the tools a profile serves, with their JSON schemas (no vault needed)')).action(
    async (options: CommonOptions) => {
      const opened = await openFromOptions(options, { defaultLogLevel: 'warn' }).catch((err: unknown) => {
        if (err instanceof NotekernelError && err.code === 'not_found' && /^No vault given/.test(err.message)) return undefined;
        throw err;
      });
      if (opened) {
        print(opened.vault.tools());
        await opened.kernel.close();
        return;
      }
      const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'notekernel-tools-'));
      try {
        const { kernel, vault } = await openFromOptions({ ...options, vault: scratch }, { defaultLogLevel: 'warn' });
        print(vault.tools());
        await kernel.close();
      } finally {
        await fs.rm(scratch, { recursive: true, force: true });
      }
    },
  );
}

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
