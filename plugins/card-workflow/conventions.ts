/**
 * Naming conventions: a markdown file whose YAML frontmatter holds the machine-checked rules
 * (title format, length, content and heading sizes) and whose body is the prose the agent
 * reads in the embedded prompts. `validateTitle` names each broken rule with an example.
 * A file without frontmatter is the user's prose alone: its rules replace the built-in ones
 * (see `rulesFromProse`). The title length is advice unless `length_check: reject` (seed 001
 * confirms its own 42- and 44-character example titles against a 20-40 convention).
 */
import fs from 'node:fs';
import { z } from 'zod';
import { ConfigError } from '../../kernel/errors.js';
import { loadYamlBounded, splitFrontmatter } from '../../toolkit/markdown/frontmatter.js';
import { OPTIONS_KEY } from './options.js';

const titleRules = z
  .object({
    format: z.string().min(1).default('YYYYMMDD-CoreConcept').describe('the format as shown to the agent'),
    date_prefix: z.enum(['YYYYMMDD', 'YYYY-MM-DD', 'none']).default('YYYYMMDD'),
    separator: z.string().min(1).max(3).default('-'),
    min_length: z.number().int().min(1).default(20),
    max_length: z.number().int().min(1).default(40),
    length_check: z
      .enum(['warn', 'reject'])
      .default('warn')
      .describe('warn: a title outside the length is confirmed with a warning; reject: refused'),
    concept_pattern: z
      .string()
      .min(1)
      .optional()
      .describe('regular expression (unicode) the part after the date must match'),
    examples: z
      .array(z.string().min(1))
      .default(['20251021-MCP-Tool-Driven-Design', '20251021-State-Machine-Patterns-in-Workflows']),
  })
  .strict();

const rulesSchema = z
  .object({
    title: titleRules.prefault({}),
    content: z
      .object({ min_words: z.number().int().min(1).default(300), max_words: z.number().int().min(1).default(800) })
      .strict()
      .prefault({}),
    heading: z
      .object({
        min_length: z.number().int().min(1).default(40),
        max_length: z.number().int().min(1).default(100),
        needed_below_words: z
          .number()
          .int()
          .min(0)
          .default(5)
          .describe('a title whose core concept has fewer words gets a heading'),
      })
      .strict()
      .prefault({}),
  })
  .strict();

export type ConventionRules = z.output<typeof rulesSchema>;

export interface NamingConventions {
  file: string;
  rules: ConventionRules;
  /** The conventions as written for people (the file's body). */
  text: string;
  conceptPattern: RegExp;
  /** Where the checked rules come from: the frontmatter, or the prose of a file without one. */
  source: 'frontmatter' | 'prose';
  /** For prose: what was read from it, and what is not checked (logged at start-up). */
  notice?: string;
}

export interface TitleViolation {
  rule: 'format' | 'date' | 'core_concept' | 'length';
  message: string;
  example: string;
}

export function loadConventions(file: string): NamingConventions {
  const text = fs.readFileSync(file, 'utf8');
  return parseConventions(text, file);
}

export function parseConventions(text: string, file: string): NamingConventions {
  const key = `${OPTIONS_KEY}.naming_conventions_file`;
  const fail = (reason: string) => new ConfigError(`${key}: ${file}: ${reason}`, { key, path: file, reason });
  const split = splitFrontmatter(text);
  let raw: unknown = {};
  let prose: ProseRules | undefined;
  if (split.yaml === undefined && split.rest.trim() !== '') {
    prose = rulesFromProse(split.rest);
    raw = prose.rules;
  } else if (split.yaml !== undefined) {
    try {
      raw = loadYamlBounded(split.yaml) ?? {};
    } catch (err) {
      throw fail(`frontmatter is not valid YAML (${(err as Error).message.split('\n')[0]})`);
    }
  }
  const parsed = rulesSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw fail(`${issue?.path.join('.') || '(frontmatter)'}: ${issue?.message ?? 'invalid'}`);
  }
  const rules = parsed.data;
  if (rules.title.min_length > rules.title.max_length) throw fail('title.min_length is greater than title.max_length');
  if (rules.content.min_words > rules.content.max_words)
    throw fail('content.min_words is greater than content.max_words');
  if (rules.heading.min_length > rules.heading.max_length)
    throw fail('heading.min_length is greater than heading.max_length');
  let conceptPattern: RegExp;
  try {
    conceptPattern = new RegExp(rules.title.concept_pattern ?? defaultConceptPattern(rules.title.separator), 'u');
  } catch (err) {
    throw fail(`title.concept_pattern is not a valid regular expression (${(err as Error).message})`);
  }
  const body = split.rest;
  return {
    file,
    rules,
    text: body.trim(),
    conceptPattern,
    source: prose ? 'prose' : 'frontmatter',
    ...(prose ? { notice: prose.notice } : {}),
  };
}

interface ProseRules {
  rules: { title: Record<string, unknown> };
  notice: string;
}

/** Any title of one line without leading or trailing blanks: what prose alone lets us check. */
const ANY_CONCEPT = '^\\S(?:.*\\S)?$';

/**
 * The rules of a conventions file written as prose only (no frontmatter). Its own words replace
 * the built-in `YYYYMMDD-` rule: a `Format:` line (`Format: YYYY-MM-DD_concept`) gives the date
 * prefix and separator, a `Length: 20-40 characters` line the length, bullets under `Examples`
 * the examples. What the prose does not state is not checked; the agent reads the prose itself.
 */
export function rulesFromProse(body: string): ProseRules {
  const lines = body.split(/\r?\n/).map((line) =>
    line
      .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
      .replace(/\*\*/g, '')
      .trim(),
  );
  const value = (label: RegExp) =>
    lines
      .find((l) => label.test(l))
      ?.replace(label, '')
      .trim();
  const title: Record<string, unknown> = { concept_pattern: ANY_CONCEPT };
  const read: string[] = [];
  const format = value(/^(?:title\s+)?format\s*:\s*/i)
    ?.replace(/`/g, '')
    .split(/\s/)[0]
    ?.replace(/[:;,.]+$/, '');
  if (format) {
    title.format = format;
    const date = /^(YYYY-MM-DD|YYYYMMDD)(.?)/.exec(format);
    title.date_prefix = date ? date[1] : 'none';
    if (date?.[2] && !/[A-Za-z0-9]/.test(date[2])) title.separator = date[2];
    read.push(
      `format ${format}${date ? ` (date ${date[1]}${date[2] ? `, then "${date[2]}"` : ''})` : ' (no date prefix)'}`,
    );
  } else {
    title.format = '(as the conventions below say)';
    title.date_prefix = 'none';
  }
  const length = /(\d+)\s*(?:-|–|to)\s*(\d+)/.exec(value(/^(?:title\s+)?length\s*:\s*/i) ?? '');
  if (length && Number(length[1]) >= 1 && Number(length[1]) <= Number(length[2])) {
    title.min_length = Number(length[1]);
    title.max_length = Number(length[2]);
    read.push(`length ${length[1]}-${length[2]} characters (advice)`);
  } else {
    title.min_length = 1;
    title.max_length = 500;
  }
  const examplesAt = lines.findIndex((l) => /^#*\s*examples?\s*:?\s*$/i.test(l));
  const examples: string[] = [];
  if (examplesAt >= 0) {
    for (const line of body.split(/\r?\n/).slice(examplesAt + 1)) {
      const item = /^\s*[-*+]\s+`?([^`\s]+)`?\s*$/.exec(line);
      if (item?.[1]) examples.push(item[1]);
      else if (line.trim() !== '' || examples.length) break;
    }
  }
  if (examples.length) title.examples = examples;
  else title.examples = format ? [format] : ['(see the conventions)'];
  const notice = read.length
    ? `naming conventions without frontmatter: the built-in rules are replaced by what the prose states (${read.join('; ')}); nothing else about titles is checked`
    : 'naming conventions without frontmatter and without a Format: line: the built-in YYYYMMDD- rule is replaced by the prose, which the agent reads; titles are not format-checked (add YAML frontmatter with title rules to have them checked)';
  return { rules: { title }, notice };
}

function defaultConceptPattern(separator: string): string {
  const sep = separator.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return `^[\\p{L}\\p{N}]+(?:${sep}[\\p{L}\\p{N}]+)*$`;
}

/** Today's date in the convention's prefix format (server local date). */
export function datePrefix(conventions: NamingConventions, now: Date): string {
  const y = String(now.getFullYear()).padStart(4, '0');
  const m = String(now.getMonth() + 1).padStart(2, '0');
  const d = String(now.getDate()).padStart(2, '0');
  switch (conventions.rules.title.date_prefix) {
    case 'YYYYMMDD':
      return `${y}${m}${d}`;
    case 'YYYY-MM-DD':
      return `${y}-${m}-${d}`;
    case 'none':
      return '';
  }
}

/** Splits a title into its date prefix and core concept, per the convention. */
export function splitTitle(
  conventions: NamingConventions,
  title: string,
): { date?: string; concept: string } | undefined {
  const { date_prefix, separator } = conventions.rules.title;
  if (date_prefix === 'none') return { concept: title };
  const dateShape = date_prefix === 'YYYYMMDD' ? /^(\d{4})(\d{2})(\d{2})/ : /^(\d{4})-(\d{2})-(\d{2})/;
  const match = dateShape.exec(title);
  if (!match || !title.slice(match[0].length).startsWith(separator)) return undefined;
  return { date: match[0], concept: title.slice(match[0].length + separator.length) };
}

export function conceptWords(conventions: NamingConventions, title: string): string[] {
  const concept = splitTitle(conventions, title)?.concept ?? title;
  return concept
    .split(conventions.rules.title.separator)
    .flatMap((part) => part.split(/[\s_-]+/u))
    .filter(Boolean);
}

export function validateTitle(conventions: NamingConventions, rawTitle: string): TitleViolation[] {
  const rules = conventions.rules.title;
  const title = rawTitle.trim();
  const example = rules.examples[0] ?? rules.format;
  const violations: TitleViolation[] = [];
  const parts = splitTitle(conventions, title);
  if (!parts) {
    violations.push({
      rule: 'format',
      message: `The title must follow the format ${rules.format}: it starts with the date as ${rules.date_prefix} followed by "${rules.separator}".`,
      example,
    });
  } else {
    if (parts.date && !isCalendarDate(parts.date)) {
      violations.push({
        rule: 'date',
        message: `"${parts.date}" is not a calendar date; use the card's date as ${rules.date_prefix}.`,
        example,
      });
    }
    if (!conventions.conceptPattern.test(parts.concept)) {
      violations.push({
        rule: 'core_concept',
        message:
          parts.concept === ''
            ? `The core concept after the date is missing (format ${rules.format}).`
            : `The core concept "${parts.concept}" must match the convention: words of letters and digits joined by "${rules.separator}", no spaces or punctuation.`,
        example,
      });
    }
  }
  const length = [...title].length;
  if (rules.length_check === 'reject' && (length < rules.min_length || length > rules.max_length)) {
    violations.push({
      rule: 'length',
      message: `The title is ${length} characters long; the convention asks for ${rules.min_length}-${rules.max_length}.`,
      example,
    });
  }
  return violations;
}

/** What the conventions advise and do not enforce: the length, unless `length_check: reject`. */
export function titleAdvice(conventions: NamingConventions, rawTitle: string): string[] {
  const rules = conventions.rules.title;
  const length = [...rawTitle.trim()].length;
  if (rules.length_check === 'reject' || (length >= rules.min_length && length <= rules.max_length)) return [];
  return [
    `The title is ${length} characters long; the naming convention suggests ${rules.min_length}-${rules.max_length}. Accepted: the length is advice (length_check: warn).`,
  ];
}

function isCalendarDate(text: string): boolean {
  const digits = text.replace(/-/g, '');
  const y = Number(digits.slice(0, 4));
  const m = Number(digits.slice(4, 6));
  const d = Number(digits.slice(6, 8));
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
