/**
 * An embedder behind any OpenAI-compatible `POST /v1/embeddings` endpoint: Ollama, llama.cpp's
 * server, vLLM, Hugging Face TEI, or a hosted API (decision 036). The user's stronger model
 * instead of the offline USE-lite one. `id` is `openai:<model>`: the index stores it with the
 * dimension (`<id>/<dim>`), so another model or dimension drops the stored vectors and every
 * passage is embedded again.
 *
 * One request per batch, no retry here: the background queue already retries failed batches
 * with its backoff (backends/hybrid-search/embed-queue.ts), and a search must not wait through
 * retries — it answers by keyword instead. The API key goes in the Authorization header only:
 * no message, log line or error property carries it.
 */
import type { Embedder } from './embedder.js';

export interface HttpEmbedderOptions {
  /** The API base, e.g. `http://127.0.0.1:11434/v1`; requests go to `${url}/embeddings`. */
  url: string;
  model: string;
  /** Length of the vectors the model returns; a different length is an error naming this option. */
  dimension: number;
  /** Texts per request (default 64). */
  batchSize?: number;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** Longest one request may take, answer included (default 30,000 ms). */
  timeoutMs?: number;
}

/** Why a request to the endpoint gave no vectors; `message` is written for the user and names the option to change. */
export class EmbeddingEndpointError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EmbeddingEndpointError';
  }
}

interface EmbeddingRow {
  index?: unknown;
  embedding?: unknown;
}

const DEFAULT_BATCH = 64;
const DEFAULT_TIMEOUT_MS = 30_000;
/** Characters of an error answer quoted in a message: enough for the server's reason. */
const QUOTED_CHARS = 200;

export function httpEmbedder(options: HttpEmbedderOptions): Embedder {
  const endpoint = `${options.url.replace(/\/+$/, '')}/embeddings`;
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  const where = `embedding endpoint ${endpoint} (model "${options.model}")`;

  // Node's global fetch, not axios: the toolkit needs no HTTP dependency for one POST, and
  // AbortSignal.timeout bounds the whole exchange, the answer's body included.
  const post = async (texts: readonly string[]): Promise<{ response: Response; text: string }> => {
    const response = await fetch(endpoint, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: options.model, input: texts }),
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { response, text: await response.text() };
  };

  const request = async (texts: readonly string[]): Promise<Float32Array[]> => {
    let response: Response;
    let text: string;
    try {
      try {
        ({ response, text } = await post(texts));
      } catch (err) {
        // A kept-alive connection the server closed (it restarted) fails at once: one fresh try.
        // Not a retry policy — the queue has that — so a closed port still fails fast.
        if (!isClosedSocket(err)) throw err;
        ({ response, text } = await post(texts));
      }
    } catch (err) {
      if (isTimeout(err))
        throw new EmbeddingEndpointError(`The ${where} did not answer within ${timeoutMs} ms (embedder.timeoutMs).`);
      throw new EmbeddingEndpointError(
        `The ${where} could not be reached (${causeOf(err)}); check embedder.url and that the server runs.`,
      );
    }
    if (!response.ok) {
      const hint =
        response.status === 401 || response.status === 403
          ? ' Check embedder.apiKey / embedder.apiKeyEnv.'
          : response.status === 404
            ? ' Check embedder.url (the base ending in /v1) and embedder.model.'
            : '';
      throw new EmbeddingEndpointError(
        `The ${where} answered ${response.status}: ${reasonIn(text)}.${hint}`,
        response.status,
      );
    }
    return vectorsIn(text, texts.length);
  };

  const vectorsIn = (text: string, expected: number): Float32Array[] => {
    let rows: unknown;
    try {
      rows = (JSON.parse(text) as { data?: unknown }).data;
    } catch {
      throw new EmbeddingEndpointError(`The ${where} answered something that is not JSON: ${quote(text)}.`);
    }
    if (!Array.isArray(rows) || rows.length !== expected) {
      throw new EmbeddingEndpointError(
        `The ${where} answered ${Array.isArray(rows) ? rows.length : 'no'} embeddings for ${expected} texts (expected { data: [{ index, embedding }] }).`,
      );
    }
    const out = new Array<Float32Array | undefined>(expected);
    (rows as EmbeddingRow[]).forEach((row, position) => {
      // Placed by `index` (the API does not promise order); a server that omits it answers in order.
      const at = typeof row?.index === 'number' ? row.index : position;
      const values = row?.embedding;
      if (!Number.isInteger(at) || at < 0 || at >= expected || out[at] !== undefined)
        throw new EmbeddingEndpointError(
          `The ${where} answered an embedding with a bad or repeated index (${String(row?.index)}).`,
        );
      if (!Array.isArray(values) || !values.every((v) => typeof v === 'number'))
        throw new EmbeddingEndpointError(
          `The ${where} answered an embedding that is not a list of numbers (base64 is not read).`,
        );
      if (values.length !== options.dimension) {
        throw new EmbeddingEndpointError(
          `The ${where} returns ${values.length}-dimensional vectors, but embedder.dimension is ${options.dimension}: set dimension: ${values.length} (or choose the model that has ${options.dimension}).`,
        );
      }
      out[at] = Float32Array.from(values as number[]);
    });
    return out as Float32Array[];
  };

  return {
    id: `openai:${options.model}`,
    dim: options.dimension,
    async embed(texts) {
      const out: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize)
        out.push(...(await request(texts.slice(start, start + batchSize))));
      return out;
    },
  };
}

/** The server's own reason: OpenAI's `{ error: { message } }`, TEI's `{ error }`, else the start of the body. */
function reasonIn(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown };
    const error = body.error;
    if (typeof error === 'string') return quote(error);
    if (error && typeof error === 'object' && typeof (error as { message?: unknown }).message === 'string')
      return quote((error as { message: string }).message);
    if (typeof body.message === 'string') return quote(body.message);
  } catch {
    // not JSON: quoted as it is
  }
  return quote(text || '(empty answer)');
}

function quote(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim().replace(/\.$/, '');
  return line.length > QUOTED_CHARS ? `${line.slice(0, QUOTED_CHARS)}…` : line;
}

function isTimeout(err: unknown): boolean {
  const name = (err as { name?: unknown })?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

function isClosedSocket(err: unknown): boolean {
  const code = (err as { cause?: { code?: unknown } })?.cause?.code;
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET';
}

/** fetch's "fetch failed" hides the reason in `cause` (ECONNREFUSED, ENOTFOUND, …). */
function causeOf(err: unknown): string {
  const cause = (err as { cause?: { code?: unknown; message?: unknown } })?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (cause && typeof cause.message === 'string') return cause.message;
  return err instanceof Error ? err.message : String(err);
}
