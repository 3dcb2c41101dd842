/**
 * A tool that needs the user's answer (InputNeededError) asks through the SDK's multi-round-trip
 * requests: the call's result is `input_required` with one request per question (a form
 * elicitation, or a completion by the client's model: sampling), and
 * the client calls again with the answers, which reach the tool as `ToolContext.answers`. On a
 * 2025 connection the SDK sends the elicitations itself and calls the handler again; a client
 * that declared no elicitation capability is refused by the SDK (-32021) before anything runs.
 */
import { type InputRequiredResult, inputRequired } from '@modelcontextprotocol/server';
import type { InputNeededError, Question } from '../../kernel/errors.js';

type ElicitParams = Parameters<typeof inputRequired.elicit>[0];

function requestFor(question: Question) {
  if (question.kind === 'completion')
    return inputRequired.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: question.prompt } }],
      maxTokens: question.maxTokens,
    });
  return inputRequired.elicit({ message: question.message, requestedSchema: question.schema } as ElicitParams);
}

export function askFor(error: InputNeededError): InputRequiredResult {
  const inputRequests = Object.fromEntries(
    Object.entries(error.questions).map(([key, question]) => [key, requestFor(question)]),
  );
  return inputRequired({ inputRequests });
}

/** The client's responses as the tool reads them: an accepted form's fields, a completion's text, or null. */
export function answersOf(
  responses: Record<string, unknown> | undefined,
): Record<string, Record<string, unknown> | null> {
  const answers: Record<string, Record<string, unknown> | null> = {};
  for (const [key, response] of Object.entries(responses ?? {})) {
    const elicited = response as { action?: unknown; content?: unknown; role?: unknown } | null;
    const content = elicited?.content;
    if (elicited?.role === 'assistant') {
      const text = (content as { type?: unknown; text?: unknown } | undefined)?.text;
      answers[key] = { text: typeof text === 'string' ? text : '' };
      continue;
    }
    answers[key] =
      elicited?.action === 'accept'
        ? typeof content === 'object' && content !== null
          ? (content as Record<string, unknown>)
          : {}
        : null;
  }
  return answers;
}
