/**
 * A tool that needs answers (InputNeededError) asks through MCP's multi-round-trip requests: the
 * call's result is `input_required` with one request per question — a form (elicitation), a
 * completion by the client's model (sampling) or the client's roots — and the client calls again
 * with the responses, which reach the tool as `ToolContext.answers`. On a 2025 connection the SDK
 * sends those requests itself and calls the handler again.
 *
 * The answers of earlier rounds travel in `requestState`, signed (HMAC, the SDK's codec) and bound
 * to the call (the tool and its arguments), with the keys asked: a tool that asks twice sees both
 * answers, a client cannot forge them or answer anything the call does not ask, and a state from
 * another call is refused (-32602). The key
 * is the process's own unless NOTEKERNEL_REQUEST_STATE_KEY (32+ bytes) gives one for several
 * processes behind one address; state is good for ten minutes.
 *
 * A question the client has no capability for is refused by the SDK (-32021) when it is required;
 * an optional one is not asked and reads as declined (null).
 */
import {
  type ClientCapabilities,
  createRequestStateCodec,
  type InputRequest,
  type InputRequiredResult,
  inputRequired,
  ProtocolError,
  ProtocolErrorCode,
} from '@modelcontextprotocol/server';
import { createHash, randomBytes } from 'node:crypto';
import { ConfigError, InputNeededError, type Question } from '../../kernel/errors.js';
import type { Extra } from './requests.js';

export type Answers = Record<string, Record<string, unknown> | null>;

interface AskState {
  /** The call it belongs to: the tool or prompt, and a digest of its arguments. */
  call: string;
  /** The keys asked so far: a response under any other key is not taken. */
  asked: string[];
  answers: Answers;
}

function callKey(subject: string, args: unknown): string {
  return `${subject}\0${createHash('sha256')
    .update(JSON.stringify(args ?? {}))
    .digest('base64url')}`;
}

const KEY_ENV = 'NOTEKERNEL_REQUEST_STATE_KEY';

function stateKey(): Uint8Array | string {
  const given = process.env[KEY_ENV];
  if (given === undefined || given === '') return randomBytes(32);
  if (Buffer.byteLength(given) < 32)
    throw new ConfigError(`${KEY_ENV} must be at least 32 bytes long; it signs the answers a tool asked for.`, {
      key: KEY_ENV,
    });
  return given;
}

const codec = createRequestStateCodec<AskState>({ key: stateKey(), bind: (ctx) => ctx.mcpReq.method });

/** For ServerOptions.requestState: a state that fails its signature or expiry is refused (-32602). */
export const REQUEST_STATE = { verify: codec.verify };

type ElicitParams = Parameters<typeof inputRequired.elicit>[0];

const CAPABILITY: Record<NonNullable<Question['kind']>, keyof ClientCapabilities> = {
  form: 'elicitation',
  completion: 'sampling',
  roots: 'roots',
};

function requestFor(question: Question): InputRequest {
  if (question.kind === 'completion')
    return inputRequired.createMessage({
      messages: [{ role: 'user', content: { type: 'text', text: question.prompt } }],
      maxTokens: question.maxTokens,
    });
  if (question.kind === 'roots') return inputRequired.listRoots();
  return inputRequired.elicit({ message: question.message, requestedSchema: question.schema } as ElicitParams);
}

/**
 * Runs `work` (a tool call, a prompt) with the answers so far — the verified state's and this
 * round's responses — and asks again when it needs more; `subject` binds the state to it.
 */
export async function answering<T>(
  subject: string,
  args: unknown,
  extra: Extra,
  client: ClientCapabilities | undefined,
  work: (answers: Answers) => Promise<T>,
): Promise<T | InputRequiredResult> {
  const call = callKey(subject, args);
  const state = extra.mcpReq.requestState<AskState>();
  if (state && state.call !== call)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      'requestState belongs to another call; call again without it.',
    );
  // A response counts for a question the call asks (now, or in a round the state recorded), never
  // for another key; one given before it was asked (a client that knows the question) is taken.
  const offered = answersOf(extra.mcpReq.inputResponses);
  const pick = (keys: readonly string[]): Answers =>
    Object.fromEntries(keys.filter((k) => k in offered).map((k) => [k, offered[k] ?? null]));
  let answers: Answers = { ...state?.answers, ...pick(state?.asked ?? []) };
  let asked = state?.asked ?? [];
  for (;;) {
    try {
      return await work(answers);
    } catch (err) {
      if (!(err instanceof InputNeededError)) throw err;
      const keys = Object.keys(err.questions);
      const given = pick(keys.filter((k) => !(k in answers)));
      if (Object.keys(given).length) {
        answers = { ...answers, ...given };
        continue;
      }
      const next = await askFor(err, call, asked, answers, client, extra);
      if ('ask' in next) return next.ask;
      answers = next.answers;
      asked = [...asked, ...keys];
    }
  }
}

/** The questions the client can be asked now; optional ones it cannot answer read as declined. */
async function askFor(
  error: InputNeededError,
  call: string,
  askedBefore: string[],
  answers: Answers,
  client: ClientCapabilities | undefined,
  ctx: Extra,
): Promise<{ ask: InputRequiredResult } | { answers: Answers }> {
  const inputRequests: Record<string, InputRequest> = {};
  const declined: Answers = {};
  for (const [key, question] of Object.entries(error.questions)) {
    if (question.optional && !client?.[CAPABILITY[question.kind ?? 'form']]) declined[key] = null;
    else inputRequests[key] = requestFor(question);
  }
  // Nothing the client can be asked: the tool goes on with the optional questions declined.
  if (!Object.keys(inputRequests).length) return { answers: { ...answers, ...declined } };
  const asked = [...new Set([...askedBefore, ...Object.keys(inputRequests)])];
  const requestState = await codec.mint({ call, asked, answers: { ...answers, ...declined } }, ctx);
  return { ask: inputRequired({ inputRequests, requestState }) };
}

/** The client's responses as a tool reads them: a form's fields, a completion's text, the roots; null when declined. */
function answersOf(responses: Record<string, unknown> | undefined): Answers {
  const answers: Answers = {};
  for (const [key, value] of Object.entries(responses ?? {})) {
    const response = value as { action?: unknown; content?: unknown; role?: unknown; roots?: unknown } | null;
    if (Array.isArray(response?.roots)) answers[key] = { roots: response.roots };
    else if (response?.role === 'assistant') {
      const text = (response.content as { text?: unknown } | undefined)?.text;
      answers[key] = { text: typeof text === 'string' ? text : '' };
    } else if (response?.action === 'accept') {
      const content = response.content;
      answers[key] = typeof content === 'object' && content !== null ? (content as Record<string, unknown>) : {};
    } else answers[key] = null;
  }
  return answers;
}
