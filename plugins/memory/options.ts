/**
 * The memory plugin's options (`plugins: { memory: { … } }`). `timestamps` picks which form
 * `createdAt` / `updatedAt` take; the other form is always beside them, so every answer
 * offers both: `iso` (default) adds `createdAtMs` / `updatedAtMs`, `epoch` (seed 002's
 * `createdAt: number`, in milliseconds like its `Date.now()` fallback) adds `createdAtIso` /
 * `updatedAtIso`.
 */
import { z } from 'zod';
import { token, type Token } from '../../kernel/container.js';

export const memoryOptions = z
  .object({
    timestamps: z
      .enum(['iso', 'epoch'])
      .default('iso')
      .describe(
        "createdAt/updatedAt as ISO-8601 strings (iso) or as seed 002's epoch numbers in milliseconds (epoch); the other form is always given too",
      ),
  })
  .strict();

export type MemoryOptions = z.infer<typeof memoryOptions>;
export type TimestampForm = MemoryOptions['timestamps'];

export const MEMORY_OPTIONS = token<MemoryOptions>('memory.options');

/** The vault's timestamp form, for a tool (iso when the plugin was registered without options). */
export function timestampForm(ctx: { tryResolve<T>(t: Token<T>): T | undefined }): TimestampForm {
  return ctx.tryResolve(MEMORY_OPTIONS)?.timestamps ?? 'iso';
}
