/**
 * The package's library entry: the kernel's contracts and API, the built-in plugins, backends
 * and profiles, and the MCP server — with `createKernel` defaulting to the built-in catalogue.
 * `createKernel({ profile: 'flint' })` → `kernel.openVault(dir)` → `vault.call(tool, args)`.
 */
import { createKernel as createKernelWith, type Kernel, type KernelOptions } from '../kernel/kernel.js';
import { builtinLazyCatalogue } from '../profiles/builtins.js';

export * from '../kernel/index.js';
export { builtinCatalogue } from '../profiles/catalogue.js';
export { builtinLazyCatalogue } from '../profiles/builtins.js';
export { createMcpServer } from './mcp/server.js';
export { serveHttp, type HttpOptions, type HttpHandle } from './mcp/http.js';
export { createRouter, VaultRouter } from './vaults/router.js';

/** Options of the kernel, the catalogue left out for the built-in one. */
export type CreateKernelOptions = Omit<KernelOptions, 'catalogue'> & Partial<Pick<KernelOptions, 'catalogue'>>;

/** A kernel over the built-in plugins, backends and profiles, unless `catalogue` names others. */
export function createKernel(options: CreateKernelOptions = {}): Promise<Kernel> {
  return createKernelWith({ ...options, catalogue: options.catalogue ?? builtinLazyCatalogue });
}
