/**
 * The OpenAI-compatible endpoint embedder against a real HTTP server on 127.0.0.1 (the fake
 * endpoint answers deterministic bag-of-words vectors): batches of `batchSize`, rows placed by
 * their `index`, the key sent and never shown, and every way an endpoint fails — a 500, no
 * answer, a closed port, the wrong dimension — as a message that names the option to change.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QueryEmbeddingError, QueryVectors } from '../../../toolkit/embedding/query-vectors.js';
import { embedInBatches } from '../../../toolkit/embedding/embedder.js';
import { EmbeddingEndpointError, httpEmbedder } from '../../../toolkit/embedding/http-embedder.js';
import { FakeEmbeddingEndpoint } from '../../support/fake-embedding-endpoint.js';

const KEY = 'sk-test-4f1e9a-never-shown';
let endpoint: FakeEmbeddingEndpoint;

beforeEach(async () => {
  endpoint = new FakeEmbeddingEndpoint(64);
  await endpoint.start();
});
afterEach(async () => {
  await endpoint.stop();
});

const texts = [
  'harbour ferry timetable',
  'sourdough starter feeding',
  'osprey over the reservoir',
  'tax receipts',
  'ferry to the island',
];

describe('httpEmbedder', () => {
  it('posts batches of batchSize to <url>/embeddings and returns one vector per text, in order', async () => {
    const embedder = httpEmbedder({
      url: `${endpoint.baseUrl}/`,
      model: 'fake-bow',
      dimension: 64,
      batchSize: 2,
      apiKey: KEY,
    });
    expect(embedder.id).toBe('openai:fake-bow');
    expect(embedder.dim).toBe(64);
    const vectors = await embedder.embed(texts);
    expect(endpoint.requests.map((r) => r.input)).toEqual([texts.slice(0, 2), texts.slice(2, 4), texts.slice(4)]);
    expect(endpoint.requests.every((r) => r.model === 'fake-bow' && r.authorization === `Bearer ${KEY}`)).toBe(true);
    expect(vectors.map((v) => Array.from(v))).toEqual(texts.map((t) => endpoint.vector('fake-bow', t)));
    expect(await embedder.embed([])).toEqual([]);
    expect(endpoint.requests).toHaveLength(3);
  });

  it('places each row by its index when the server answers them out of order', async () => {
    endpoint.behaviour = 'shuffle';
    const embedder = httpEmbedder({ url: endpoint.baseUrl, model: 'fake-bow', dimension: 64 });
    const vectors = await embedder.embed(texts);
    expect(vectors.map((v) => Array.from(v))).toEqual(texts.map((t) => endpoint.vector('fake-bow', t)));
    // Through embedInBatches (as the index calls it): unit length, the ferry texts nearest each other.
    const [ferry, , , , island] = await embedInBatches(embedder, texts);
    const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
    expect(cosine(ferry!, ferry!)).toBeCloseTo(1, 5);
    expect(cosine(ferry!, island!)).toBeGreaterThan(0.3);
  });

  it('refuses vectors of another dimension, naming embedder.dimension and the length to set', async () => {
    endpoint.dimensions.set('wide-model', 96);
    const embedder = httpEmbedder({ url: endpoint.baseUrl, model: 'wide-model', dimension: 64 });
    await expect(embedder.embed(['anything'])).rejects.toThrow(
      /returns 96-dimensional vectors, but embedder\.dimension is 64: set dimension: 96/,
    );
  });

  it('reports a 500 with the server reason, a closed port and a request past timeoutMs, never the key', async () => {
    const embedder = httpEmbedder({
      url: endpoint.baseUrl,
      model: 'fake-bow',
      dimension: 64,
      apiKey: KEY,
      timeoutMs: 300,
    });
    endpoint.behaviour = 'fail';
    const failed = await embedder.embed(['one']).catch((err: unknown) => err);
    expect(failed).toBeInstanceOf(EmbeddingEndpointError);
    expect((failed as EmbeddingEndpointError).status).toBe(500);
    expect(String(failed)).toMatch(
      /\/v1\/embeddings \(model "fake-bow"\) answered 500: the fake endpoint was told to fail/,
    );

    // How soon after timeoutMs the hung request is given up is measured by the bench (test/bench/time-bounds.ts).
    endpoint.behaviour = 'hang';
    const hung = await embedder.embed(['two']).catch((err: unknown) => err);
    expect(String(hung)).toMatch(/did not answer within 300 ms \(embedder\.timeoutMs\)/);

    await endpoint.stop();
    const refused = await embedder.embed(['three']).catch((err: unknown) => err);
    expect(String(refused)).toMatch(/could not be reached \(ECONNREFUSED\); check embedder\.url/);
    for (const err of [failed, hung, refused])
      expect(JSON.stringify({ message: String(err), ...(err as object) })).not.toContain(KEY);
  });

  it('says which option to check on a 401 and a 404', async () => {
    await endpoint.stop();
    const embedder = httpEmbedder({ url: 'http://127.0.0.1:1/v1', model: 'fake-bow', dimension: 64 });
    await expect(embedder.embed(['x'])).rejects.toThrow(/could not be reached/);
    await endpoint.start();
    const wrongPath = httpEmbedder({ url: `${endpoint.baseUrl}/v2`, model: 'fake-bow', dimension: 64 });
    await expect(wrongPath.embed(['x'])).rejects.toThrow(
      /answered 404: no route POST \/v1\/v2\/embeddings\. Check embedder\.url/,
    );
    endpoint.requiredKey = KEY;
    const keyless = httpEmbedder({ url: endpoint.baseUrl, model: 'fake-bow', dimension: 64 });
    await expect(keyless.embed(['x'])).rejects.toThrow(
      /answered 401: Incorrect API key provided\. Check embedder\.apiKey/,
    );
    await expect(
      httpEmbedder({ url: endpoint.baseUrl, model: 'fake-bow', dimension: 64, apiKey: KEY }).embed(['x']),
    ).resolves.toHaveLength(1);
  });

  it('makes a query the endpoint cannot embed a QueryEmbeddingError, and embeds it once it answers again', async () => {
    const queries = new QueryVectors(httpEmbedder({ url: endpoint.baseUrl, model: 'fake-bow', dimension: 64 }));
    endpoint.behaviour = 'fail';
    const err = await queries.of('ferry').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QueryEmbeddingError);
    expect((err as QueryEmbeddingError).reason).toMatch(/answered 500/);
    endpoint.behaviour = 'ok';
    await expect(queries.of('ferry')).resolves.toHaveLength(64);
    expect(endpoint.texts()).toEqual(['ferry', 'ferry']);
  });
});
