/**
 * A fake OpenAI-compatible embeddings endpoint on 127.0.0.1: `POST /v1/embeddings` answers
 * `{ data: [{ index, embedding }] }` with a deterministic bag of words per text — each word
 * hashed with the model's name into one of `dimension` buckets — so texts sharing words are near,
 * and two models give two different spaces. Keeps every request (model, input, Authorization
 * header) and can be told to fail, hang, shuffle its answer or return the wrong dimension.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface EmbeddingRequest {
  model: string;
  input: string[];
  authorization?: string;
}

export type EndpointBehaviour = 'ok' | 'fail' | 'hang' | 'shuffle';

export class FakeEmbeddingEndpoint {
  readonly requests: EmbeddingRequest[] = [];
  /** What the next requests get: an answer, a 500, no answer at all, or the rows in reverse order. */
  behaviour: EndpointBehaviour = 'ok';
  /** When set, a request without `Authorization: Bearer <requiredKey>` gets a 401. */
  requiredKey: string | undefined;
  /** Vector length per model; a model not listed gets `dimension`. */
  readonly dimensions = new Map<string, number>();
  private server?: http.Server;
  private port = 0;

  constructor(readonly dimension = 64) {}

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  /** Texts the endpoint was asked to embed, over every request (optionally for one model). */
  texts(model?: string): string[] {
    return this.requests.filter((r) => model === undefined || r.model === model).flatMap((r) => r.input);
  }

  /** Listens on a free port, or on the port it had before a `stop`. */
  async start(): Promise<string> {
    const server = http.createServer((req, res) => void this.serve(req, res));
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as AddressInfo).port;
    return this.baseUrl;
  }

  /** Closes the port: requests are refused until the next `start`. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  vector(model: string, text: string): number[] {
    const dim = this.dimensions.get(model) ?? this.dimension;
    const vector = new Array<number>(dim).fill(0);
    for (const word of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
      const digest = createHash('sha1').update(`${model}\0${word}`).digest();
      vector[digest.readUInt32LE(0) % dim]! += (digest[4]! & 1) === 0 ? 1 : -1;
    }
    return vector;
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req as AsyncIterable<Buffer>) text += chunk.toString('utf8');
    if (req.method !== 'POST' || req.url !== '/v1/embeddings')
      return send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    const body = JSON.parse(text) as { model: string; input: string | string[] };
    const input = typeof body.input === 'string' ? [body.input] : body.input;
    this.requests.push({
      model: body.model,
      input,
      ...(req.headers.authorization ? { authorization: req.headers.authorization } : {}),
    });
    if (this.requiredKey !== undefined && req.headers.authorization !== `Bearer ${this.requiredKey}`)
      return send(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error' } });
    if (this.behaviour === 'hang') return; // never answers; the client's timeout ends it
    if (this.behaviour === 'fail')
      return send(res, 500, { error: { message: 'the fake endpoint was told to fail', type: 'server_error' } });
    const data = input.map((t, index) => ({ object: 'embedding', index, embedding: this.vector(body.model, t) }));
    if (this.behaviour === 'shuffle') data.reverse();
    send(res, 200, { object: 'list', model: body.model, data, usage: { prompt_tokens: 0, total_tokens: 0 } });
  }
}

function send(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
