/**
 * What every card-workflow tool shares: the loaded resources, the `next_action` shape, the
 * thinking records that let a commit warn (never block) when its thinking step was skipped,
 * and common zod fields. The server keeps no state: all of it travels in the calls.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { ToolAnnotations } from '../../kernel/tool.js';
import type { NamingConventions } from './conventions.js';
import type { TemplateMapping } from './mapping.js';
import type { CardSaver } from './save.js';
import type { TemplateSet } from './templates.js';

export interface CardWorkflow {
  conventions: NamingConventions;
  templates: TemplateSet;
  mapping: TemplateMapping;
  saveCard: CardSaver;
  outputDirectory: string;
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
  .describe('workflow stage: draft (stage 1) or card (stage 2); copy it from next_action.arguments');

export const recordField = z
  .string()
  .max(200)
  .optional()
  .describe('record_id returned by the thinking/reflection step before this one (next_action.arguments carries it)');

export const feedbackField = z.string().max(10_000).optional().describe("the user's feedback, if any");

export const tagsField = z.array(z.string().trim().min(1).max(200)).max(100).describe('the user\'s tags, e.g. ["#MCP", "#WorkflowDesign"]');

/** Annotations of the tools that only answer (think, generate, reflect, select, format). */
export const ANSWER_ONLY: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

/** A short, deterministic id for what a thinking step recorded: `<tool>:<12 hex>`. */
export function recordId(tool: string, payload: unknown): string {
  return `${tool}:${createHash('sha256').update(JSON.stringify(payload)).digest('hex').slice(0, 12)}`;
}

const RECORD = /^([a-z_]+):[0-9a-f]{12}$/;

/** A warning when the record passed is missing or comes from a step other than the expected ones. */
export function recordWarnings(tool: string, given: string | undefined, expected: readonly string[]): string[] {
  const from = RECORD.exec(given ?? '')?.[1];
  if (from && expected.includes(from)) return [];
  const steps = expected.join(' or ');
  if (given === undefined) {
    // Missing usually means the id was not copied along, not that the step was skipped.
    return [`${tool} got no thinking_record_id: pass the record_id that ${steps} returned (the previous answer's next_action.arguments carries it). This does not block the step.`];
  }
  return [`${tool} got thinking_record_id "${given}", which is not a record from ${steps}. This does not block the step.`];
}

export function withWarnings<T extends object>(body: T, warnings: string[]): T & { warnings?: string[] } {
  return warnings.length ? { ...body, warnings } : body;
}

/** The opening of some content, for `content_summary` (heading_reflection): up to two sentences, 300 characters. */
export function contentSummary(content: string): string {
  const text = content.replace(/\s+/gu, ' ').trim();
  const sentences = text.match(/[^.!?]+[.!?]+/gu)?.slice(0, 2).join('').trim() || text;
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
export const nextActionOutput = z.object({ tool: z.string(), instruction: z.string(), arguments: z.record(z.string(), z.unknown()).optional(), wait_for_user: z.boolean().optional() });

/** A naming-convention violation (commit_title, title_reflection). */
export const violationsOutput = z.array(z.object({ rule: z.string(), message: z.string(), example: z.string() }));
