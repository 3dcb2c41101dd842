/**
 * Workflow records (decision 040): what the steps of one card's workflow said so far, one small
 * JSON file per workflow under `.notekernel/card-workflow/` in the vault. The server process
 * keeps nothing between calls; a call that omits a value the seed's literal calls omit
 * (`generate_title()`, `commit_title(title)`) reads it from the record: the one its
 * `workflow_id` names, else the latest open one this server wrote, else (after a restart) the
 * latest open one in the vault. Generators only read; think, reflection and commit steps write.
 * A record never blocks a step: unreadable, read-only or missing, the call answers without it.
 */
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import type { VaultFiles } from '../../kernel/backend.js';
import { ContentHashMismatchError } from '../../kernel/errors.js';
import type { Logger } from '../../kernel/logger.js';
import { contentHash } from '../../toolkit/hash.js';

export const RECORDS_DIR = '.notekernel/card-workflow';
/** An open record older than this is no longer a default (it still answers to its workflow_id). */
export const DEFAULT_WINDOW_MS = 24 * 3600_000;
/** Records untouched this long are removed when a new workflow starts. */
export const PRUNE_AFTER_MS = 7 * 24 * 3600_000;
const MAX_STEPS = 60;
export const WORKFLOW_ID = /^\d{8}-\d{6}-[0-9a-f]{6}$/;

const revisionSchema = z.object({
  part: z.enum(['title', 'content', 'heading']),
  original: z.string().optional(),
  feedback: z.string().optional(),
});

const recordSchema = z.object({
  workflow_id: z.string().regex(WORKFLOW_ID),
  owner: z.string(),
  status: z.enum(['open', 'saved', 'reset']),
  stage: z.enum(['draft', 'card']),
  created: z.string(),
  updated: z.string(),
  steps: z.array(z.string()),
  topic: z.string().optional(),
  context_summary: z.string().optional(),
  key_points: z.array(z.string()).optional(),
  title: z.string().optional(),
  draft: z.string().optional(),
  content: z.string().optional(),
  tags: z.array(z.string()).optional(),
  content_summary: z.string().optional(),
  heading: z.string().optional(),
  /** A revision asked for and not yet committed: what generate_* without arguments works on. */
  revise: revisionSchema.optional(),
});

export type WorkflowRecord = z.infer<typeof recordSchema>;
export type Revision = z.infer<typeof revisionSchema>;

/** How a record was found: named by the call, this server's latest, or the vault's latest (a restart). */
export type ResolvedBy = 'workflow_id' | 'this_server' | 'latest_in_vault';

export interface Resolved {
  record?: WorkflowRecord;
  by?: ResolvedBy;
  /** The file's hash when read: the write that follows is a compare-and-swap on it. */
  hash?: string;
  warnings: string[];
}

export interface RecordStore {
  /** False on a read-only vault: nothing is recorded, so nothing defaults. */
  readonly writable: boolean;
  /** Finds the record a call works on (among defaults, only those `match` accepts); never throws. */
  resolve(workflowId?: string, match?: (record: WorkflowRecord) => boolean): Promise<Resolved>;
  /**
   * Applies `change` to the resolved record (a new one when there is none, or `fresh`) and writes
   * it; returns undefined when nothing can be written (read-only vault, I/O failure).
   */
  update(
    resolved: Resolved | undefined,
    step: string,
    change: (record: WorkflowRecord) => void,
  ): Promise<WorkflowRecord | undefined>;
}

export interface RecordStoreOptions {
  files: VaultFiles;
  readOnly: boolean;
  logger: Logger;
  now(): Date;
  /** This server's mark on the records it writes (random per start). */
  owner?: string;
}

export function createRecordStore(options: RecordStoreOptions): RecordStore {
  const { files, logger, now } = options;
  const owner = options.owner ?? randomBytes(4).toString('hex');
  const fileOf = (id: string) => `${RECORDS_DIR}/${id}.json`;

  const read = async (id: string): Promise<{ record: WorkflowRecord; hash: string } | undefined> => {
    try {
      const text = await files.readText(fileOf(id));
      if (text === undefined) return undefined;
      const parsed = recordSchema.safeParse(JSON.parse(text));
      if (!parsed.success) {
        logger.debug({ workflow_id: id }, 'card-workflow record skipped: not a record');
        return undefined;
      }
      return { record: parsed.data, hash: contentHash(text) };
    } catch (err) {
      logger.debug({ workflow_id: id, err: (err as Error).message }, 'card-workflow record skipped: unreadable');
      return undefined;
    }
  };

  const listIds = async (): Promise<string[]> => {
    try {
      const entries = await files.listDir(RECORDS_DIR);
      return entries
        .filter((e) => !e.isDirectory && e.name.endsWith('.json'))
        .map((e) => e.name.slice(0, -5))
        .filter((id) => WORKFLOW_ID.test(id));
    } catch {
      return [];
    }
  };

  const newRecord = (): WorkflowRecord => {
    const time = now();
    const stamp = time.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
    return {
      workflow_id: `${stamp}-${randomBytes(3).toString('hex')}`,
      owner,
      status: 'open',
      stage: 'draft',
      created: time.toISOString(),
      updated: time.toISOString(),
      steps: [],
    };
  };

  const prune = async (): Promise<void> => {
    const cutoff = now().getTime() - PRUNE_AFTER_MS;
    for (const id of await listIds()) {
      const found = await read(id);
      if (found && Date.parse(found.record.updated) < cutoff)
        await files.remove(fileOf(id), { expectedHash: found.hash }).catch(() => undefined);
    }
  };

  return {
    writable: !options.readOnly,
    async resolve(workflowId, match = () => true) {
      if (workflowId !== undefined) {
        const found = WORKFLOW_ID.test(workflowId) ? await read(workflowId) : undefined;
        if (found) return { record: found.record, hash: found.hash, by: 'workflow_id', warnings: [] };
        return {
          warnings: [
            `workflow_id "${workflowId}" names no workflow record in this vault; the call is answered from its own arguments only.`,
          ],
        };
      }
      const since = now().getTime() - DEFAULT_WINDOW_MS;
      const open: Array<{ record: WorkflowRecord; hash: string }> = [];
      for (const id of await listIds()) {
        const found = await read(id);
        if (found && found.record.status === 'open' && Date.parse(found.record.updated) >= since && match(found.record))
          open.push(found);
      }
      const latest = (list: typeof open) =>
        list.sort(
          (a, b) =>
            b.record.updated.localeCompare(a.record.updated) ||
            b.record.workflow_id.localeCompare(a.record.workflow_id),
        )[0];
      const mine = latest(open.filter((f) => f.record.owner === owner));
      if (mine) return { record: mine.record, hash: mine.hash, by: 'this_server', warnings: [] };
      const any = latest(open);
      if (!any) return { warnings: [] };
      const minutes = Math.round((now().getTime() - Date.parse(any.record.updated)) / 60_000);
      return {
        record: any.record,
        hash: any.hash,
        by: 'latest_in_vault',
        warnings: [
          `Continuing workflow ${any.record.workflow_id} found in the vault (stage ${any.record.stage}, last step ${any.record.steps.at(-1) ?? 'none'}, ${minutes} min ago${any.record.title ? `, title "${any.record.title}"` : ''}). If that is not your card, pass workflow_id, or start again with start_draft_generation.`,
        ],
      };
    },

    async update(resolved, step, change) {
      if (options.readOnly) return undefined;
      let current = resolved?.record
        ? { record: structuredClone(resolved.record), hash: resolved.hash ?? '' }
        : undefined;
      try {
        if (!current) await prune();
        for (let attempt = 0; attempt < 3; attempt++) {
          const record = current ? structuredClone(current.record) : newRecord();
          change(record);
          record.owner = owner;
          record.steps = [...record.steps, step].slice(-MAX_STEPS);
          record.updated = now().toISOString();
          try {
            await files.mkdir(RECORDS_DIR);
            await files.writeText(fileOf(record.workflow_id), `${JSON.stringify(record, null, 2)}\n`, {
              expectedHash: current?.hash ?? '',
            });
            return record;
          } catch (err) {
            if (!(err instanceof ContentHashMismatchError) || !current) throw err;
            // Another call changed it meanwhile: apply this step to what it wrote.
            const again = await read(current.record.workflow_id);
            if (!again) throw err;
            current = again;
          }
        }
      } catch (err) {
        logger.warn(
          { step, err: (err as Error).message },
          'card-workflow record not written: the next call without arguments will not see this step',
        );
      }
      return undefined;
    },
  };
}
