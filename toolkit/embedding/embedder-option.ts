/**
 * The `embedder` option of hybrid-search and the embedder it makes: `use-lite` (the offline
 * default), `hashed` (no meaning, for tests), or an OpenAI-compatible `/v1/embeddings` endpoint
 * given as an object (decision 036).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { Logger } from '../../kernel/index.js';
import { packageRoot } from '../package-root.js';
import type { Embedder } from './embedder.js';
import { hashedEmbedder } from './hashed-embedder.js';
import { httpEmbedder } from './http-embedder.js';
import { useLiteEmbedder } from './use-lite-embedder.js';
import { workerPoolEmbedder } from './worker-pool-embedder.js';

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function httpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}

export const endpointEmbedderOption = z
  .object({
    url: z
      .string()
      .refine(
        httpUrl,
        'an http:// or https:// URL without credentials: the API base, e.g. http://127.0.0.1:11434/v1 (requests go to <url>/embeddings; a key goes in apiKey or apiKeyEnv)',
      )
      .describe('the API base ending in /v1; notekernel POSTs to <url>/embeddings'),
    model: z
      .string()
      .trim()
      .min(1, 'the model name the endpoint knows, e.g. nomic-embed-text')
      .describe('sent as `model`; part of the index key, so changing it re-embeds every passage'),
    dimension: z
      .number()
      .int()
      .min(1)
      .max(16_384)
      .describe("length of the model's vectors (nomic-embed-text 768, bge-m3 1024, text-embedding-3-small 1536)"),
    batchSize: z.number().int().min(1).max(2_048).default(64).describe('passages per request'),
    apiKey: z
      .string()
      .min(1)
      .optional()
      .describe('sent as a Bearer token; prefer apiKeyEnv, which keeps the key out of the config file'),
    apiKeyEnv: z
      .string()
      .regex(ENV_NAME, 'the name of an environment variable, e.g. OPENAI_API_KEY')
      .optional()
      .describe('the environment variable holding the key'),
    timeoutMs: z
      .number()
      .int()
      .min(100)
      .max(600_000)
      .default(30_000)
      .describe(
        'longest one request may take; a search by meaning waits at most this long before answering by keyword',
      ),
  })
  .strict()
  .superRefine((endpoint, ctx) => {
    if (endpoint.apiKey !== undefined && endpoint.apiKeyEnv !== undefined)
      ctx.addIssue({ code: 'custom', path: ['apiKeyEnv'], message: 'give apiKey or apiKeyEnv, not both' });
    if (endpoint.apiKeyEnv !== undefined && !process.env[endpoint.apiKeyEnv])
      ctx.addIssue({
        code: 'custom',
        path: ['apiKeyEnv'],
        message: `the environment variable ${endpoint.apiKeyEnv} is not set`,
      });
  });

export type EndpointEmbedderOption = z.infer<typeof endpointEmbedderOption>;

const NAMED = ['use-lite', 'hashed'] as const;

/** A union's own message says only "Invalid input": this one says which form was meant and what is wrong in it. */
function unionMessage(issue: {
  code?: string;
  input?: unknown;
  errors?: ReadonlyArray<ReadonlyArray<{ path: PropertyKey[]; message: string }>>;
}): string | undefined {
  if (issue.code !== 'invalid_union') return undefined;
  const inObject = issue.errors?.[1]?.[0];
  if (typeof issue.input === 'object' && issue.input !== null && inObject) {
    return inObject.path.length ? `${inObject.path.map(String).join('.')}: ${inObject.message}` : inObject.message;
  }
  return `"use-lite", "hashed", or an endpoint { url, model, dimension } (got ${JSON.stringify(issue.input)})`;
}

/** The embedder named or described, with no default (a backend whose vectors are opt-in tells "not given" apart). */
export const embedderChoice = z.union([z.enum(NAMED), endpointEmbedderOption], { error: unionMessage });

export const embedderOption = embedderChoice
  .default('use-lite')
  .describe(
    'use-lite: Universal Sentence Encoder lite (512-d, offline); hashed: a bag of words without meaning, for tests and machines that cannot spare ~200 MB; { url, model, dimension, … }: an OpenAI-compatible /v1/embeddings endpoint (decision 036)',
  );

export type EmbedderOption = z.infer<typeof embedderOption>;

/** The embedder the option names; `threads` runs USE-lite on worker threads (0: the main thread). */
export function embedderFor(option: EmbedderOption, threads: number, logger: Logger): Embedder {
  if (option === 'hashed') return hashedEmbedder();
  if (option === 'use-lite') return modelEmbedder(threads, logger);
  const apiKey = option.apiKey ?? (option.apiKeyEnv !== undefined ? process.env[option.apiKeyEnv] : undefined);
  return httpEmbedder({
    url: option.url,
    model: option.model,
    dimension: option.dimension,
    batchSize: option.batchSize,
    timeoutMs: option.timeoutMs,
    ...(apiKey ? { apiKey } : {}),
  });
}

// Built to dist/ only: workers run JavaScript. From the TypeScript sources (a test runner) the
// model runs on the main thread.
const EMBED_WORKER = path.join(packageRoot(), 'dist', 'toolkit', 'embedding', 'embed-worker.js');

/**
 * USE-lite on worker threads, else on the main thread. The model's WASM kernels run between
 * microtasks only: on the main thread a batch of 32 passages held the event loop for its whole
 * 2–4 s (decision 018), so a server answered nobody while a vault was being indexed.
 */
function modelEmbedder(threads: number, logger: Logger): Embedder {
  if (threads === 0) return useLiteEmbedder();
  if (!existsSync(EMBED_WORKER)) {
    logger.info({ script: EMBED_WORKER }, 'embedding worker not built; the model runs on the main thread');
    return useLiteEmbedder();
  }
  return workerPoolEmbedder(EMBED_WORKER, threads);
}
