/**
 * The embedded prompts (seed 001 § 2.4): returned by the generator tools, built from the naming
 * conventions file and what the call carries. A first draft and a revision with feedback get
 * different prompts.
 */
import { datePrefix, type NamingConventions } from './conventions.js';

export interface TitlePromptInput {
  contextSummary?: string | undefined;
  originalTitle?: string | undefined;
  feedback?: string | undefined;
}

export interface ContentPromptInput {
  title?: string | undefined;
  keyPoints?: string[] | undefined;
  originalContent?: string | undefined;
  feedback?: string | undefined;
}

export interface HeadingPromptInput {
  title?: string | undefined;
  contentSummary?: string | undefined;
  feedback?: string | undefined;
}

function conventionLines(conv: NamingConventions, now: Date, short: boolean): string[] {
  const t = conv.rules.title;
  const date =
    t.date_prefix === 'none' ? '' : `\n- Date: ${datePrefix(conv, now)} (today) unless the card belongs to another day`;
  // A prose-only conventions file is the convention: no built-in lines beside it.
  if (conv.source === 'prose') return [`Naming Convention (yours, from ${conv.file}):\n${conv.text}${date}`];
  if (short)
    return [
      `Naming Convention:\n- Format: ${t.format}\n- Length: ${t.min_length}-${t.max_length} characters\n- Atomic and self-explanatory${date}`,
    ];
  return [
    `Naming Convention:\n- Format: ${t.format}\n- Length: ${t.min_length}-${t.max_length} characters\n- Atomic: One card, one concept\n- Self-explanatory: Title alone should convey the topic${date}`,
    `Examples:\n${t.examples.map((e) => `- ${e}`).join('\n')}`,
  ];
}

function userConventions(conv: NamingConventions): string[] {
  return conv.text && conv.source !== 'prose' ? [`Your naming conventions (from ${conv.file}):\n${conv.text}`] : [];
}

export function titlePrompt(conv: NamingConventions, input: TitlePromptInput, now: Date): string {
  if (input.originalTitle !== undefined || input.feedback !== undefined) {
    return [
      'Regenerate the card title based on user feedback.',
      `Original title: ${input.originalTitle ?? '(not given)'}\nFeedback: ${input.feedback ?? '(none given: improve the title against the convention)'}`,
      ...conventionLines(conv, now, true),
      'Generate improved title, then call commit_title.',
    ].join('\n\n');
  }
  return [
    'You are generating a Zettelkasten card title.',
    ...conventionLines(conv, now, false),
    ...userConventions(conv),
    input.contextSummary
      ? `Based on your earlier thinking ("${input.contextSummary}"), generate a concise title.\nThen call commit_title to submit it.`
      : 'Based on your earlier thinking, generate a concise title.\nThen call commit_title to submit it.',
  ].join('\n\n');
}

export function contentPrompt(conv: NamingConventions, input: ContentPromptInput): string {
  const { min_words, max_words } = conv.rules.content;
  if (input.originalContent !== undefined || input.feedback !== undefined) {
    return [
      'Regenerate the content based on user feedback.',
      `Original content: ${input.originalContent ?? '(not given: use the content you saved)'}\nFeedback: ${input.feedback ?? '(none given)'}`,
      `Requirements:\n- Plain text, no formatting\n- Address the feedback; include 2-3 concrete examples where it helps\n- Maintain logical structure\n- Length: ${min_words}-${max_words} words`,
      'Generate improved content, then call commit_content.',
    ].join('\n\n');
  }
  const points = input.keyPoints?.length
    ? `\n\nKey points you identified:\n${input.keyPoints.map((p) => `- ${p}`).join('\n')}`
    : '';
  return [
    `You are generating draft content for the card titled '${input.title ?? '(the title you committed)'}'.`,
    `Requirements:\n- Plain text, no formatting (no markdown headings)\n- Extract key information, arguments, and examples from the conversation\n- Clear logic, well-organized paragraphs separated by blank lines\n- Length: ${min_words}-${max_words} words`,
    'Content should include:\n1. Problem context (why this design is needed)\n2. Solution approach (how it works)\n3. Key design points (core mechanisms)\n4. Practical applications (specific scenarios)' +
      points,
    'Based on the key points you identified, generate complete draft content.\nThen call commit_draft to submit it.',
  ].join('\n\n');
}

export function headingPrompt(conv: NamingConventions, input: HeadingPromptInput): string {
  const { min_length, max_length } = conv.rules.heading;
  return [
    'Generate a detailed content heading.',
    `Card title: ${input.title ?? '(your final title)'}\nContent summary: ${input.contentSummary ?? '(your summary of the content)'}` +
      (input.feedback ? `\nFeedback: ${input.feedback}` : ''),
    `Requirements:\n- More detailed than card title (no filename constraints)\n- Accurately describes the core mechanism\n- Length: ${min_length}-${max_length} characters`,
    'Generate heading, then call commit_heading.',
  ].join('\n\n');
}
