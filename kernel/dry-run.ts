/**
 * The `dry_run` argument of a journalled multi-note tool (decision 025), one short description
 * for all of them: the plan it returns is the one the real run applies.
 */
import { z } from 'zod';

export const dryRunField = z.boolean().default(false).describe('true: return the exact plan (notes, unified diffs); write nothing');
