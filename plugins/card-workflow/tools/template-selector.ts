import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { recommend } from '../mapping.js';
import { ANSWER_ONLY, nextAction, normaliseTags, tagsField, type CardWorkflow, nextActionOutput } from '../workflow.js';
import { num, str, strs } from '../../../toolkit/tool-output.js';

/** Analyzer: recommends a template from the mapping rules, the tags and the title words. */
export function templateSelectorTool(wf: CardWorkflow) {
  return defineTool({
    name: 'template_selector',
    description: 'Recommend a card template from the title and tags; lists the available templates.',
    input: z.object({
      title: z.string().trim().min(1).max(500).describe('the final title'),
      tags: tagsField,
    }),
    output: z.object({
      recommended: str,
      reasoning: str,
      confidence: num,
      matched: z.object({ tags: strs, title_keywords: strs }),
      available_templates: strs,
      sections: strs,
      next_action: nextActionOutput,
    }),
    annotations: { title: 'Template selector', ...ANSWER_ONLY },
    async handler(args) {
      const tags = normaliseTags(args.tags);
      const pick = recommend(wf.mapping, wf.templates, args.title, tags);
      const template = wf.templates.templates.get(pick.recommended);
      const sections = template?.sections.map((s) => s.label) ?? [];
      const placement = template?.hasContent
        ? 'The content goes into {{content}}.'
        : `Without "sections", the first paragraph fills "${sections[0] ?? '-'}" and the rest "${sections[1] ?? sections[0] ?? '-'}"; pass "sections" ({ "<section>": "text" }) to place text yourself.`;
      return {
        recommended: pick.recommended,
        reasoning: pick.reasoning,
        confidence: pick.confidence,
        matched: pick.matched,
        available_templates: [...wf.templates.templates.keys()].sort(),
        sections,
        next_action: nextAction(
          'apply_template',
          `Template selected. Call apply_template with all finalized components: title, content, heading (if any), template_type and the user's tags. ${placement}`,
          { template_type: pick.recommended, title: args.title, tags },
        ),
      };
    },
  });
}
