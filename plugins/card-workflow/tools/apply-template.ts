import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { NotFoundError, ValidationError } from '../../../kernel/errors.js';
import { validateTitle } from '../conventions.js';
import { renderCard } from '../render.js';
import {
  ANSWER_ONLY,
  nextAction,
  normaliseTags,
  tagsField,
  withWarnings,
  type CardWorkflow,
  nextActionOutput,
} from '../workflow.js';
import { str, strs, warningsOutput } from '../../../toolkit/tool-output.js';

/** Formatter: every finalized component arrives in this one call; the server adds the timestamp. */
export function applyTemplateTool(wf: CardWorkflow) {
  return defineTool({
    name: 'apply_template',
    description: 'Format the card: fill the template with title, content, heading, tags and the server time.',
    input: z.object({
      title: z.string().trim().min(1).max(500).describe('the final title'),
      content: z.string().trim().min(1).max(200_000).describe('the final content'),
      heading: z
        .string()
        .trim()
        .min(1)
        .max(500)
        .optional()
        .describe('the content heading, if one was committed; the title otherwise'),
      template_type: z
        .string()
        .trim()
        .min(1)
        .max(200)
        .describe('template name, e.g. the one template_selector recommended'),
      tags: tagsField,
      sections: z
        .record(z.string().max(200), z.string().max(200_000))
        .optional()
        .describe(
          'optional text per template section, keyed by section name ("Core Concept") or placeholder ("core_concept")',
        ),
    }),
    output: z.object({
      formatted_card: str,
      template_used: str,
      timestamp_added: str,
      sections_populated: strs,
      sections_empty: strs,
      unknown_placeholders: strs,
      next_action: nextActionOutput,
      ...warningsOutput,
    }),
    annotations: { title: 'Apply template', ...ANSWER_ONLY, idempotentHint: false },
    async handler(args) {
      const template = wf.templates.templates.get(args.template_type);
      if (!template) {
        const bad = wf.templates.invalid.find((t) => t.name === args.template_type);
        if (bad)
          throw new ValidationError(`Template "${bad.name}" is malformed (${bad.path}): ${bad.error}`, {
            field: 'template_type',
            template: bad.name,
            path: bad.path,
          });
        throw new NotFoundError(
          `Unknown template "${args.template_type}". Available templates: ${[...wf.templates.templates.keys()].sort().join(', ')}`,
          {
            field: 'template_type',
            available_templates: [...wf.templates.templates.keys()].sort(),
          },
        );
      }
      const created = wf
        .now()
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z');
      const card = renderCard(template, {
        title: args.title,
        content: args.content,
        heading: args.heading,
        tags: normaliseTags(args.tags),
        sections: args.sections,
        created,
      });
      const warnings: string[] = [];
      if (card.unknownPlaceholders.length) {
        warnings.push(
          `Template "${template.name}" has placeholders this server does not fill; they are left visible: ${card.unknownPlaceholders.map((p) => `{{${p}}}`).join(', ')}`,
        );
      }
      if (card.unusedSections.length)
        warnings.push(`These sections are not in template "${template.name}": ${card.unusedSections.join(', ')}`);
      if (validateTitle(wf.conventions, args.title).length)
        warnings.push('The title breaks the naming convention (commit_title would reject it).');
      return withWarnings(
        {
          formatted_card: card.text,
          template_used: template.name,
          timestamp_added: created,
          sections_populated: card.sectionsPopulated,
          sections_empty: card.sectionsEmpty,
          unknown_placeholders: card.unknownPlaceholders,
          next_action: nextAction(
            'save_card',
            'Card formatted. Call save_card with formatted_card and the filename to persist it.',
            {
              filename: `${args.title}.md`,
            },
          ),
        },
        warnings,
      );
    },
  });
}
