/**
 * What every card-workflow tool shares: the loaded resources, the `next_action` shape, the
 * thinking records that let a commit warn (never block) when its thinking step was skipped,
 * and common zod fields. The process keeps nothing between calls: what a call leaves out comes from
 * the workflow record in the vault (records.ts, decision 040).
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { VaultFiles } from '../../kernel/backend.js';
import type { ToolAnnotations } from '../../kernel/tool.js';
import type { NamingConventions } from './conventions.js';
import type { TemplateMapping } from './mapping.js';
import type { CardSaver } from './save.js';
import type { TemplateSet } from './templates.js';
import type { RecordStore, Resolved, WorkflowRecord } from './records.js';

export interface CardWorkflow {
  conventions: NamingConventions;
  templates: TemplateSet;
  mapping: TemplateMapping;
  saveCard: CardSaver;
  outputDirectory: string;
  /** The files cards are in: the vault's, or those of an output_directory outside the vault. */
  cardFiles: VaultFiles;
  /** The output_directory outside the vault, when it is one (absolute). */
  externalOutput?: string;
  dispose(): void;
  /** Where the workflow records live (decision 040): the defaults of the seed's argument-less calls. */
  records: RecordStore;
  now(): Date;
}

export interface NextAction {
  tool: string;
  instruction: string;
  /** Values the server already knows for that call (stage, echoed context): pass them along. */
  arguments?: Record<string, unknown>;
}

export function nextAction(tool: string, instruction: string, args?: Record<string, unknown>): NextAction {
  const defined = Object.fromEntries(Object.entries(args ?? {}).filter(([, v]) => v !== undefined));
  return Object.keys(defined).length ? { tool, instruction, arguments: defined } : { tool, instruction };
}

export type Stage = 'draft' | 'card';

export const stageField = z
  .enum(['draft', 'card'])
  .optional()
  .describe("draft (stage 1) or card (stage 2); default: the workflow's");

export const recordField = z
  .string()
  .max(200)
  .optional()
  .describe('record_id of the thinking or reflection step before');

export const workflowIdField = z.string().optional().describe('default: open workflow');

/** The seed passes `user_feedback=null` for "none" (8.2): null reads as no feedback. */
export const feedbackField = z
  .preprocess((value) => value ?? undefined, z.string().max(10_000).optional())
  .describe("the user's feedback, if any");

export const tagsField = z
  .array(z.string().trim().min(1).max(200))
  .max(100)
  .describe('the user\'s tags, e.g. ["#MCP", "#WorkflowDesign"]');

/** Annotations of the tools that only answer (think, generate, reflect, select, format). */
export const ANSWER_ONLY: ToolAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

/** A short, deterministic id for what a thinking step recorded: `<tool>:<12 hex>`. */
export function recordId(tool: string, payload: unknown): string {
  return `${tool}:${createHash('sha256').update(JSON.stringify(payload)).digest('hex').slice(0, 12)}`;
}

const RECORD = /^([a-z_]+):[0-9a-f]{12}$/;

/**
 * A warning when the thinking step before a commit cannot be seen: neither the record id passed
 * (`thinking_record_id`) nor the workflow record shows one of the expected steps.
 */
export function recordWarnings(
  tool: string,
  given: string | undefined,
  expected: readonly string[],
  record: WorkflowRecord | undefined,
  records: RecordStore,
): string[] {
  const from = RECORD.exec(given ?? '')?.[1];
  if (from && expected.includes(from)) return [];
  const steps = expected.join(' or ');
  if (given === undefined) {
    // Without records (a read-only vault) a skipped step cannot be told from one not passed along.
    if (record?.steps.some((step) => expected.includes(step)) || !records.writable) return [];
    return [
      `${tool} got no thinking_record_id and its workflow shows no ${steps} step: call ${steps} first, or pass the record_id it returned. This does not block the step.`,
    ];
  }
  return [
    `${tool} got thinking_record_id "${given}", which is not a record from ${steps}. This does not block the step.`,
  ];
}

/** The record's id for the next call's arguments (nothing when no record was written). */
export function idOf(record: WorkflowRecord | undefined): { workflow_id?: string } {
  return record ? { workflow_id: record.workflow_id } : {};
}

/** A default record that belongs to a finished or later stage: a stage-1 step starts a new workflow instead. */
export function continuing(resolved: Resolved, fits: (record: WorkflowRecord) => boolean): Resolved | undefined {
  if (!resolved.record) return resolved;
  return resolved.by === 'workflow_id' || fits(resolved.record) ? resolved : undefined;
}

export function withWarnings<T extends object>(body: T, warnings: string[]): T & { warnings?: string[] } {
  return warnings.length ? { ...body, warnings } : body;
}

/** The opening of some content, for `content_summary` (heading_reflection): up to two sentences, 300 characters. */
export function contentSummary(content: string): string {
  const text = content.replace(/\s+/gu, ' ').trim();
  const sentences =
    text
      .match(/[^.!?]+[.!?]+/gu)
      ?.slice(0, 2)
      .join('')
      .trim() || text;
  return sentences.length > 300 ? `${sentences.slice(0, 297).trimEnd()}…` : sentences;
}

export function wordCount(text: string): number {
  return text.split(/\s+/u).filter(Boolean).length;
}

export function normaliseTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.trim()).filter(Boolean))];
}

/** Logged, never stored: think tools are no-ops whose arguments are the record. */
export function clip(text: string, max = 200): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** NextAction as an output schema: every step's answer carries one. */
export const nextActionOutput = z.object({
  tool: z.string(),
  instruction: z.string(),
  arguments: z.record(z.string(), z.unknown()).optional(),
  wait_for_user: z.boolean().optional(),
});

/** A naming-convention violation (commit_title, title_reflection). */
export const violationsOutput = z.array(z.object({ rule: z.string(), message: z.string(), example: z.string() }));
