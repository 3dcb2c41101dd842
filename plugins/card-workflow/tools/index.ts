/** The card-workflow tools in seed 001's order: stage 1, stage 2, utilities. */
import type { AnyTool } from '../../../kernel/tool.js';
import type { CardWorkflow } from '../workflow.js';
import { applyTemplateTool } from './apply-template.js';
import { commitContentTool } from './commit-content.js';
import { commitDraftTool } from './commit-draft.js';
import { commitHeadingTool } from './commit-heading.js';
import { commitTitleTool } from './commit-title.js';
import { contentReflectionTool } from './content-reflection.js';
import { contentThinkerTool } from './content-thinker.js';
import { findCardsTool } from './find-cards.js';
import { generateContentTool } from './generate-content.js';
import { generateHeadingTool } from './generate-heading.js';
import { generateTitleTool } from './generate-title.js';
import { getAvailableTemplatesTool } from './get-available-templates.js';
import { headingReflectionTool } from './heading-reflection.js';
import { resetWorkflowTool } from './reset-workflow.js';
import { saveCardTool } from './save-card.js';
import { startCardGenerationTool } from './start-card-generation.js';
import { startDraftGenerationTool } from './start-draft-generation.js';
import { templateSelectorTool } from './template-selector.js';
import { titleReflectionTool } from './title-reflection.js';
import { titleThinkerTool } from './title-thinker.js';

export function cardWorkflowTools(wf: CardWorkflow): AnyTool[] {
  return [
    startDraftGenerationTool(wf),
    titleThinkerTool(wf),
    generateTitleTool(wf),
    commitTitleTool(wf),
    contentThinkerTool(wf),
    generateContentTool(wf),
    commitDraftTool(wf),
    startCardGenerationTool(wf),
    titleReflectionTool(wf),
    contentReflectionTool(wf),
    commitContentTool(wf),
    headingReflectionTool(wf),
    generateHeadingTool(wf),
    commitHeadingTool(wf),
    templateSelectorTool(wf),
    findCardsTool(wf),
    applyTemplateTool(wf),
    saveCardTool(wf),
    getAvailableTemplatesTool(wf),
    resetWorkflowTool(wf),
  ];
}
