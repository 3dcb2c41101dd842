/**
 * An agent simulator for the card workflow. It never decides which tool comes next: it calls
 * whatever `next_action.tool` the last answer named, passing `next_action.arguments` through
 * unchanged and adding only what a model would write itself (title, content, heading) or what
 * the simulated user says (tags, edits, feedback), plus what it saved in its context, as seed
 * 001 § 9.6 describes.
 */
import type { Client } from '@modelcontextprotocol/client';
import { callTool } from '../../support/mcp.js';

export interface NextAction {
  tool: string;
  instruction: string;
  arguments?: Record<string, unknown>;
  wait_for_user?: boolean;
}

export interface AgentScript {
  topic: string;
  contextSummary: string;
  keyPoints: string[];
  /** Titles the model writes in stage 1, in order (a bad one first exercises the rejection). */
  draftTitles: string[];
  draft: string;
  contentSummary: string;
  user: { tags: string[]; editedDraft?: string; titleFeedback?: string; contentFeedback?: string };
  /** Stage 2 regenerations, used only when the server leads there. */
  revisedTitles?: string[];
  revisedContent?: string;
  heading?: string;
}

export interface AgentMemory {
  title?: string;
  content?: string;
  heading?: string;
  tags?: string[];
  card?: string;
}

export interface Step {
  tool: string;
  args: Record<string, unknown>;
  body: Record<string, unknown>;
}

export interface AgentRun {
  steps: Step[];
  calls: string[];
  memory: AgentMemory;
  saved: Record<string, unknown>;
}

const MAX_STEPS = 40;

export async function runAgent(client: Client, script: AgentScript): Promise<AgentRun> {
  const draftTitles = [...script.draftTitles];
  const revisedTitles = [...(script.revisedTitles ?? [])];
  const memory: AgentMemory = {};
  const steps: Step[] = [];
  let action: NextAction = { tool: 'start_draft_generation', instruction: 'the user asked for a card' };

  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined)
      throw new Error(
        `the server led to a step the script has no ${what} for (after ${steps.map((s) => s.tool).join(' → ')})`,
      );
    return value;
  };

  for (let i = 0; i < MAX_STEPS; i++) {
    const hinted = action.arguments ?? {};
    const args = compose(action.tool, hinted);
    const answer = await callTool(client, action.tool, args);
    if (answer.isError) throw new Error(`${action.tool} failed: ${JSON.stringify(answer.body)}`);
    const body = answer.body as Record<string, unknown>;
    steps.push({ tool: action.tool, args, body });
    remember(action.tool, args, body);
    if (action.tool === 'save_card') return { steps, calls: steps.map((s) => s.tool), memory, saved: body };
    action = need(body.next_action as NextAction | undefined, `next_action in the answer of ${action.tool}`);
  }
  throw new Error(`no saved card after ${MAX_STEPS} steps: ${steps.map((s) => s.tool).join(' → ')}`);

  function compose(tool: string, hinted: Record<string, unknown>): Record<string, unknown> {
    switch (tool) {
      case 'start_draft_generation':
        return { topic: script.topic };
      case 'title_thinker':
        return { ...hinted, context_summary: script.contextSummary };
      case 'commit_title':
        return {
          ...hinted,
          title: need((hinted.stage === 'card' ? revisedTitles : draftTitles).shift(), `${String(hinted.stage)} title`),
        };
      case 'content_thinker':
        return { ...hinted, title: need(memory.title, 'title'), key_points: script.keyPoints };
      case 'commit_draft':
        return { ...hinted, content: script.draft };
      case 'start_card_generation': // the user reviewed the draft, maybe edited it, and gives tags
        return { ...hinted, draft_content: script.user.editedDraft ?? hinted.draft_content, tags: script.user.tags };
      case 'title_reflection':
        return { ...hinted, original_title: need(memory.title, 'title'), ...feedback(script.user.titleFeedback) };
      case 'content_reflection':
        return {
          ...hinted,
          original_content: need(memory.content, 'content'),
          ...feedback(script.user.contentFeedback),
        };
      case 'commit_content':
        return { ...hinted, content: need(script.revisedContent, 'revised content') };
      case 'heading_reflection':
        return { ...hinted, title: need(memory.title, 'title'), content_summary: script.contentSummary };
      case 'commit_heading':
        return { ...hinted, heading: need(script.heading, 'heading') };
      case 'template_selector':
        return { ...hinted, title: need(memory.title, 'title'), tags: need(memory.tags, 'tags') };
      case 'apply_template':
        return {
          ...hinted,
          title: need(memory.title, 'title'),
          content: need(memory.content, 'content'),
          tags: need(memory.tags, 'tags'),
          ...(memory.heading ? { heading: memory.heading } : {}),
        };
      case 'save_card':
        return { ...hinted, formatted_card: need(memory.card, 'card') };
      default: // generators need nothing but what next_action carries
        return { ...hinted };
    }
  }

  function remember(tool: string, args: Record<string, unknown>, body: Record<string, unknown>): void {
    if (tool === 'commit_title' && body.status === 'title_confirmed') memory.title = args.title as string;
    if (tool === 'commit_draft') memory.content = args.content as string;
    if (tool === 'start_card_generation') {
      memory.title = args.title as string;
      memory.content = args.draft_content as string;
      memory.tags = (body.received as { tags: string[] }).tags;
    }
    if (tool === 'commit_content') memory.content = args.content as string;
    if (tool === 'commit_heading') memory.heading = args.heading as string;
    if (tool === 'apply_template') memory.card = body.formatted_card as string;
  }
}

function feedback(text: string | undefined): Record<string, unknown> {
  return text ? { user_feedback: text } : {};
}
