/**
 * Template mapping: which template suits a card, from its tags and title words. The file is
 * YAML (`default`, then per template a description, tags and title keywords, in priority
 * order). A malformed file fails start-up naming the path; a rule for a template that is not
 * loaded is skipped and reported.
 */
import fs from 'node:fs';
import { loadYamlBounded } from '../../toolkit/markdown/frontmatter.js';
import { z } from 'zod';
import { ConfigError } from '../../kernel/errors.js';
import { OPTIONS_KEY } from './options.js';
import type { TemplateSet } from './templates.js';

const ruleSchema = z
  .object({
    description: z.string().optional(),
    tags: z.array(z.string().min(1)).default([]),
    title_keywords: z.array(z.string().min(1)).default([]),
  })
  .strict();

const mappingSchema = z
  .object({
    default: z.string().min(1).default('general'),
    templates: z.record(z.string(), ruleSchema.prefault({})).default({}),
  })
  .strict();

export type TemplateMapping = z.output<typeof mappingSchema> & { file: string };

export interface Recommendation {
  recommended: string;
  reasoning: string;
  confidence: number;
  matched: { tags: string[]; title_keywords: string[] };
}

export function loadMapping(file: string): TemplateMapping {
  const key = `${OPTIONS_KEY}.template_mapping_file`;
  const fail = (reason: string) => new ConfigError(`${key}: ${file}: ${reason}`, { key, path: file, reason });
  let raw: unknown;
  try {
    raw = loadYamlBounded(fs.readFileSync(file, 'utf8')) ?? {};
  } catch (err) {
    throw fail(`not valid YAML (${(err as Error).message.split('\n')[0]})`);
  }
  const parsed = mappingSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw fail(`${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`);
  }
  return { ...parsed.data, file };
}

/** Rules naming templates that are not loaded (missing or malformed): reported, never fatal. */
export function mappingWarnings(mapping: TemplateMapping, templates: TemplateSet): string[] {
  const warnings: string[] = [];
  if (!templates.templates.has(mapping.default)) {
    warnings.push(
      `default template "${mapping.default}" is not available; "${fallbackTemplate(mapping, templates)}" is used instead`,
    );
  }
  for (const name of Object.keys(mapping.templates)) {
    if (!templates.templates.has(name))
      warnings.push(`mapping rule for "${name}" is skipped: no valid template of that name in ${templates.dir}`);
  }
  return warnings;
}

export function fallbackTemplate(mapping: TemplateMapping, templates: TemplateSet): string {
  if (templates.templates.has(mapping.default)) return mapping.default;
  return [...templates.templates.keys()].sort()[0] ?? mapping.default;
}

const norm = (value: string) => value.trim().replace(/^#+/, '').toLowerCase();

export function recommend(
  mapping: TemplateMapping,
  templates: TemplateSet,
  title: string,
  tags: string[],
): Recommendation {
  const userTags = new Set(tags.map(norm).filter(Boolean));
  const titleText = title.toLowerCase();
  const titleWords = new Set(titleText.split(/[^\p{L}\p{N}]+/u).filter(Boolean));
  const scored = Object.entries(mapping.templates)
    .filter(([name]) => templates.templates.has(name))
    .map(([name, rule]) => {
      const tagHits = rule.tags.filter((tag) => userTags.has(norm(tag)));
      const keywordHits = rule.title_keywords.filter((kw) => {
        const k = kw.toLowerCase();
        return /[^\p{L}\p{N}]/u.test(k) ? titleText.includes(k) : titleWords.has(k);
      });
      return { name, tagHits, keywordHits, score: 2 * tagHits.length + keywordHits.length };
    })
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score);
  const best = scored[0];
  if (!best) {
    const name = fallbackTemplate(mapping, templates);
    return {
      recommended: name,
      reasoning: `Title and tags show no type indicators of the mapped templates (${Object.keys(mapping.templates).join(', ') || 'none'}). The default template "${name}" is appropriate.`,
      confidence: 0.85,
      matched: { tags: [], title_keywords: [] },
    };
  }
  const tied = scored.filter((s) => s.score === best.score && s.name !== best.name).map((s) => s.name);
  const because = [
    best.tagHits.length ? `tags ${best.tagHits.map((t) => `#${norm(t)}`).join(', ')}` : '',
    best.keywordHits.length ? `title words ${best.keywordHits.map((k) => `"${k}"`).join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  let confidence = Math.min(0.95, 0.6 + 0.1 * best.score);
  if (tied.length) confidence -= 0.15;
  return {
    recommended: best.name,
    reasoning:
      `The ${because} match the "${best.name}" template's rules.` +
      (tied.length ? ` "${tied.join('", "')}" matched as strongly; "${best.name}" comes first in the mapping.` : ''),
    confidence: Math.round(confidence * 100) / 100,
    matched: { tags: best.tagHits, title_keywords: best.keywordHits },
  };
}
