/**
 * `createKernel` over the built-in catalogue, loaded lazily: the CLI and the library both start
 * here, and importing the library's whole entry (`app/index.ts`, which also re-exports the eager
 * catalogue and the HTTP server) would evaluate every backend at every CLI start.
 */
import { createKernel as createKernelWith, type Kernel, type KernelOptions } from '../kernel/kernel.js';
import { builtinLazyCatalogue } from '../profiles/builtins.js';

/** Options of the kernel, the catalogue left out for the built-in one. */
export type CreateKernelOptions = Omit<KernelOptions, 'catalogue'> & Partial<Pick<KernelOptions, 'catalogue'>>;

/** A kernel over the built-in plugins, backends and profiles, unless `catalogue` names others. */
export function createKernel(options: CreateKernelOptions = {}): Promise<Kernel> {
  return createKernelWith({ ...options, catalogue: options.catalogue ?? builtinLazyCatalogue });
}
