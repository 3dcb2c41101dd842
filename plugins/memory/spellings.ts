/**
 * One argument, two spellings. Seed 002 writes its operations in camelCase (`rename(id,
 * newTitle)`, `replaceLink(body, oldId, newId)`, `--dry-run` → `dryRun`); agents that also use
 * notekernel's other tools (and the server's instructions) write snake_case (`new_title`,
 * `dry_run`, `content_hash`). Each memory tool lists the seed's spelling first and accepts the
 * other; an argument neither spells is still refused by invoke() with a did-you-mean.
 */
import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { ValidationError } from '../../kernel/errors.js';

/** The dry run of a journalled memory tool (NoteService.previewPlan's answer). */
export const DRY_RUN = 'true: answer the plan (a diff per entry), write nothing';

/** `{ [seed]: schema, [alt]: schema }`, both optional (which one is required is checked by `spelt`). */
export function spellings<S extends string, A extends string, T extends z.ZodType>(
  seed: S,
  alt: A,
  schema: T,
  description: string,
) {
  return { [seed]: schema.optional().describe(description), [alt]: schema.optional().describe(`= ${seed}`) } as Record<
    S | A,
    z.ZodOptional<T>
  >;
}

/** The value given under either spelling; both given and different is refused. */
export function spelt<T>(args: Record<string, unknown>, seed: string, alt: string): T | undefined {
  const a = args[seed];
  const b = args[alt];
  if (a !== undefined && b !== undefined && !isDeepStrictEqual(a, b)) {
    throw new ValidationError(
      `"${seed}" and "${alt}" are one argument spelt two ways and they differ here: pass one of them.`,
      { fields: [seed, alt] },
    );
  }
  return (a ?? b) as T | undefined;
}

/** As `spelt`, for a required argument: missing under both spellings is refused, naming both. */
export function speltRequired<T>(args: Record<string, unknown>, seed: string, alt: string, hint = ''): T {
  const value = spelt<T>(args, seed, alt);
  if (value === undefined)
    throw new ValidationError(`${seed} is required (or ${alt})${hint ? `: ${hint}` : ''}.`, {
      field: seed,
      fields: [seed, alt],
    });
  return value;
}
