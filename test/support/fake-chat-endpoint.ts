/**
 * A fake OpenAI-compatible chat endpoint on 127.0.0.1: `POST /v1/chat/completions` answers
 * from a script of replies, one per request, and keeps every request body so a test can see
 * what the model was shown (system prompt, history, tools, tool results).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedMessage {
  role: string;
  content: string | null;
  tool_calls?: Array<{ id: string; type: string; function: { name: string; arguments: string } }>;
  tool_call_id?: string;
}

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  body: {
    model: string;
    messages: ReceivedMessage[];
    tools?: Array<{
      type: string;
      function: { name: string; description?: string; parameters: Record<string, unknown> };
    }>;
    tool_choice?: string;
  };
}

/**
 * What the model says next: words, or calls of tools (`arguments` sent JSON-encoded, as OpenAI
 * does). `until` holds the answer back until it settles (a model still thinking).
 */
export type ScriptedReply = (
  | { content: string }
  | { toolCalls: Array<{ name: string; arguments: Record<string, unknown> | string }> }
) & { until?: Promise<unknown> };

export const say = (content: string, until?: Promise<unknown>): ScriptedReply => ({
  content,
  ...(until ? { until } : {}),
});
export const callTools = (
  ...toolCalls: Array<{ name: string; arguments: Record<string, unknown> | string }>
): ScriptedReply => ({ toolCalls });

export class FakeChatEndpoint {
  readonly requests: ReceivedRequest[] = [];
  private readonly script: ScriptedReply[] = [];
  private server?: http.Server;
  private calls = 0;
  baseUrl = '';

  /** Queues replies for the next requests, in order. */
  reply(...replies: ScriptedReply[]): void {
    this.script.push(...replies);
  }

  async start(): Promise<string> {
    const server = http.createServer((req, res) => void this.serve(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    return this.baseUrl;
  }

  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    let text = '';
    for await (const chunk of req as AsyncIterable<Buffer>) text += chunk.toString('utf8');
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions')
      return this.send(res, 404, { error: { message: `no route ${req.method} ${req.url}` } });
    const body = JSON.parse(text) as ReceivedRequest['body'];
    this.requests.push({ headers: req.headers, body });
    const next = this.script.shift();
    if (!next) return this.send(res, 500, { error: { message: 'the fake endpoint has no scripted reply left' } });
    await next.until;
    this.send(res, 200, this.completion(body.model, next));
  }

  private completion(model: string, reply: ScriptedReply): unknown {
    const message =
      'content' in reply
        ? { role: 'assistant', content: reply.content }
        : {
            role: 'assistant',
            content: null,
            tool_calls: reply.toolCalls.map((call) => ({
              id: `call_${++this.calls}`,
              type: 'function',
              function: {
                name: call.name,
                arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
              },
            })),
          };
    const finish = 'content' in reply ? 'stop' : 'tool_calls';
    return {
      id: `chatcmpl-${this.requests.length}`,
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [{ index: 0, message, finish_reason: finish }],
    };
  }

  private send(res: http.ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}
