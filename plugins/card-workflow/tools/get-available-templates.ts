import { z } from 'zod';
import { defineTool } from '../../../kernel/tool.js';
import { fallbackTemplate, mappingWarnings } from '../mapping.js';
import { ANSWER_ONLY, type CardWorkflow } from '../workflow.js';
import { nullableStr, str, strs, warningsOutput } from '../../../toolkit/tool-output.js';

/** Utility: every template with its description and sections, and the malformed ones with why. */
export function getAvailableTemplatesTool(wf: CardWorkflow) {
  return defineTool({
    name: 'get_available_templates',
    description: 'List the card templates with descriptions and sections; malformed ones are listed with the reason.',
    input: z.object({}),
    output: z.object({
      templates: z.array(
        z.object({ name: str, description: nullableStr, sections: strs, unknown_placeholders: strs, path: str }),
      ),
      invalid_templates: z.array(z.object({ name: str, path: str, error: str })),
      default_template: str,
      templates_directory: str,
      template_mapping_file: str,
      naming_conventions_file: str,
      ...warningsOutput,
    }),
    annotations: { title: 'Available templates', ...ANSWER_ONLY },
    async handler() {
      const templates = [...wf.templates.templates.values()]
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((t) => ({
          name: t.name,
          description: wf.mapping.templates[t.name]?.description ?? null,
          sections: t.sections.map((s) => s.label),
          unknown_placeholders: t.unknown,
          path: t.path,
        }));
      const warnings = mappingWarnings(wf.mapping, wf.templates);
      return {
        templates,
        invalid_templates: wf.templates.invalid,
        default_template: fallbackTemplate(wf.mapping, wf.templates),
        templates_directory: wf.templates.dir,
        template_mapping_file: wf.mapping.file,
        naming_conventions_file: wf.conventions.file,
        ...(warnings.length ? { warnings } : {}),
      };
    },
  });
}
