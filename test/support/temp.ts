/** Temp folders and kernels for tests: real files, real SQLite, nothing of ours mocked. */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Kernel } from '../../kernel/kernel.js';
import type { KernelOptions } from '../../app/config/assemble.js';
import { createKernel } from '../../app/index.js';
import { silentLogger } from '../../kernel/logger.js';
import type { Vault } from '../../kernel/vault.js';
import type { UserConfig } from '../../app/config/user-config.js';
import { track } from './temp-registry.js';

export async function tempDir(prefix = 'nk-test-'): Promise<string> {
  return track(await fs.realpath(await fs.mkdtemp(path.join(os.tmpdir(), prefix))));
}

export async function removeDir(dir: string): Promise<void> {
  // A server just stopped may still be removing its own files (ENOTEMPTY): Node retries those.
  await fs.rm(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
}

export interface TestKernel {
  kernel: Kernel;
  vault: Vault;
  root: string;
  close(): Promise<void>;
}

/** A kernel on a fresh temp vault (initialised with the profile's defaults unless `init: false`). */
export async function createTestKernel(
  options: { profile?: string; config?: UserConfig; root?: string; init?: boolean } & Partial<
    Pick<KernelOptions, 'catalogue' | 'readOnly'>
  > = {},
): Promise<TestKernel> {
  const root = options.root ?? (await tempDir());
  const kernel = await createKernel({
    profile: options.profile ?? 'flint',
    config: options.config ?? {},
    logger: silentLogger(),
    ...(options.catalogue ? { catalogue: options.catalogue } : {}),
    ...(options.readOnly !== undefined ? { readOnly: options.readOnly } : {}),
  });
  const vault = await kernel.openVault(root);
  if (options.init !== false) await vault.init();
  return {
    kernel,
    vault,
    root,
    async close() {
      await kernel.close();
      if (!options.root) await removeDir(root);
    },
  };
}
