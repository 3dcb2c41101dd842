/**
 * examples/chat-agent end to end: the agent's HTTP API on 127.0.0.1, the real notekernel CLI as
 * its MCP server on a temp vault, and a fake OpenAI-compatible endpoint that plays the model
 * with scripted tool calls and records what the model was shown.
 */
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startChatAgent, type RunningAgent } from '../../examples/chat-agent/main.js';
import { CLI, assertBuilt } from '../support/cli.js';
import { FakeChatEndpoint, callTools, say, type ReceivedMessage } from '../support/fake-chat-endpoint.js';
import { rawRequest } from '../support/raw-http.js';
import { removeDir, tempDir } from '../support/temp.js';

const MAX_STEPS = 3;
let vault: string;
let model: FakeChatEndpoint;
let agent: RunningAgent;

beforeAll(async () => {
  assertBuilt();
  vault = await tempDir('nk-chat-agent-');
  model = new FakeChatEndpoint();
  const baseUrl = await model.start();
  agent = await startChatAgent({
    chat: { baseUrl, model: 'scripted', apiKey: 'sk-test-key' },
    server: { command: [process.execPath, CLI], profile: 'flint', vault },
    host: '127.0.0.1',
    port: 0,
    maxSteps: MAX_STEPS,
  });
});
afterAll(async () => {
  await agent?.close();
  await model?.stop();
  if (vault) await removeDir(vault);
});
beforeEach(() => {
  model.requests.length = 0;
});

interface ChatAnswer {
  status: number;
  body: {
    response?: string;
    session_id?: string;
    tool_calls?: Array<{ name: string; arguments: unknown; is_error: boolean }>;
    detail?: string;
  };
}

async function chat(body: unknown): Promise<ChatAnswer> {
  const answer = await rawRequest(`${agent.url}/chat`, { body });
  return { status: answer.status, body: JSON.parse(answer.body) as ChatAnswer['body'] };
}

const systemOf = (messages: ReceivedMessage[]) => messages.find((m) => m.role === 'system')?.content ?? '';

describe('the chat agent over notekernel', () => {
  it("offers notekernel's tools to the model and writes a note the model asks for", async () => {
    model.reply(
      callTools({ name: 'create_note', arguments: { title: 'Groceries', content: 'Buy oat milk and red lentils.' } }),
      say('Saved your list.'),
    );
    const answer = await chat({ message: 'Note down: buy oat milk and red lentils.' });

    expect(answer.status).toBe(200);
    expect(answer.body.response).toBe('Saved your list.');
    expect(answer.body.session_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(answer.body.tool_calls).toEqual([
      {
        name: 'create_note',
        arguments: { title: 'Groceries', content: 'Buy oat milk and red lentils.' },
        is_error: false,
      },
    ]);
    expect(await fs.readFile(path.join(vault, 'general', 'groceries.md'), 'utf8')).toContain(
      'Buy oat milk and red lentils.',
    );

    const [first, second] = model.requests;
    expect(first?.headers.authorization).toBe('Bearer sk-test-key');
    expect(first?.body.model).toBe('scripted');
    expect(first?.body.tool_choice).toBe('auto');
    const createNote = first?.body.tools?.find((t) => t.function.name === 'create_note');
    expect(createNote?.type).toBe('function');
    expect(createNote?.function.parameters).toMatchObject({
      type: 'object',
      properties: { title: expect.any(Object) },
    });
    expect(createNote?.function.parameters).not.toHaveProperty('$schema');
    expect(first?.body.tools?.map((t) => t.function.name).sort()).toEqual([...agent.tools].sort());
    // The tool's answer went back to the model, tied to its call.
    const toolMessage = second?.body.messages.at(-1);
    const assistantCall = second?.body.messages.at(-2);
    expect(toolMessage?.role).toBe('tool');
    expect(toolMessage?.tool_call_id).toBe(assistantCall?.tool_calls?.[0]?.id);
    expect(JSON.parse(toolMessage?.content ?? '{}')).toMatchObject({ id: 'general/groceries.md' });
  });

  it("keeps a session's history: the second message is sent with the first turn, and finds the note", async () => {
    model.reply(
      callTools({ name: 'create_note', arguments: { title: 'Sourdough', content: 'Feed the starter at 8pm.' } }),
      say('Noted.'),
    );
    const first = await chat({ message: 'Remember to feed the starter at 8pm.' });
    const sessionId = first.body.session_id;

    model.reply(
      callTools({ name: 'search_notes', arguments: { query: 'starter' } }),
      say('You feed the starter at 8pm.'),
    );
    const second = await chat({ message: 'When do I feed the starter?', session_id: sessionId });

    expect(second.status).toBe(200);
    expect(second.body.session_id).toBe(sessionId);
    expect(second.body.response).toBe('You feed the starter at 8pm.');
    const shown = model.requests[2]?.body.messages ?? [];
    expect(shown.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(shown[1]?.content).toBe('Remember to feed the starter at 8pm.');
    expect(shown[2]?.tool_calls?.[0]?.function.name).toBe('create_note');
    expect(shown[4]?.content).toBe('Noted.');
    expect(shown[5]?.content).toBe('When do I feed the starter?');
    const found = model.requests[3]?.body.messages.at(-1);
    expect(found?.role).toBe('tool');
    expect(found?.content).toContain('sourdough');

    // A conversation started without session_id shares nothing with this one.
    model.reply(say('Hello.'));
    const other = await chat({ message: 'Hi' });
    expect(other.body.session_id).not.toBe(sessionId);
    expect(model.requests[4]?.body.messages.map((m) => m.role)).toEqual(['system', 'user']);
  });

  it('runs two requests on one session one after the other, the later seeing the earlier', async () => {
    model.reply(say('ok'));
    const sessionId = (await chat({ message: 'Zero' })).body.session_id;
    let think!: () => void;
    model.reply(say('first', new Promise<void>((resolve) => (think = resolve))), say('second'));
    const both = Promise.all([
      chat({ message: 'One', session_id: sessionId }),
      chat({ message: 'Two', session_id: sessionId }),
    ]);
    await expect.poll(() => model.requests.length).toBe(2);
    // While the model thinks about one message, the other waits its turn rather than reaching the model.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(model.requests).toHaveLength(2);
    think();
    expect((await both).map((a) => a.status)).toEqual([200, 200]);
    const [earlier, later] = [model.requests[1]?.body.messages ?? [], model.requests[2]?.body.messages ?? []];
    expect(earlier.map((m) => m.content).slice(1, 3)).toEqual(['Zero', 'ok']);
    expect(later.map((m) => m.content).slice(1)).toEqual([
      'Zero',
      'ok',
      earlier.at(-1)?.content,
      'first',
      expect.stringMatching(/^(One|Two)$/),
    ]);
    expect(later.at(-1)?.content).not.toBe(earlier.at(-1)?.content);
  });

  it('puts Preferences.md into the system prompt, read afresh for each message', async () => {
    expect(agent.preferences).toEqual({ kind: 'file', file: path.join(vault, 'Preferences.md') });
    model.reply(say('Hi.'));
    await chat({ message: 'Hello' });
    expect(systemOf(model.requests[0]?.body.messages ?? [])).not.toContain('User Preferences');

    await fs.writeFile(path.join(vault, 'Preferences.md'), '- Answer in French.\n- Dates as YYYY-MM-DD.\n');
    model.reply(say('Bonjour.'), say('Oui.'));
    const first = await chat({ message: 'Hello again' });
    const system = systemOf(model.requests[1]?.body.messages ?? []);
    expect(system).toContain('## User Preferences');
    expect(system).toContain('- Answer in French.\n- Dates as YYYY-MM-DD.');

    await fs.writeFile(path.join(vault, 'Preferences.md'), '- Answer in German.\n');
    await chat({ message: 'And now?', session_id: first.body.session_id });
    const later = model.requests[2]?.body.messages ?? [];
    expect(systemOf(later)).toContain('- Answer in German.');
    expect(later.filter((m) => m.role === 'system')).toHaveLength(1);
    await fs.rm(path.join(vault, 'Preferences.md'));
  });

  it(`stops calling tools after ${MAX_STEPS} rounds and asks the model to answer in words`, async () => {
    const search = { name: 'search_notes', arguments: { query: 'lentils' } };
    model.reply(
      callTools(search),
      callTools({ name: 'search_notes', arguments: '{not json' }),
      callTools({ name: 'no_such_tool', arguments: {} }),
      say('I could not settle it.'),
    );
    const answer = await chat({ message: 'Search forever.' });

    expect(answer.status).toBe(200);
    expect(answer.body.response).toBe('I could not settle it.');
    expect(answer.body.tool_calls?.map((c) => [c.name, c.is_error])).toEqual([
      ['search_notes', false],
      ['search_notes', true],
      ['no_such_tool', true],
    ]);
    expect(model.requests.map((r) => r.body.tool_choice)).toEqual(['auto', 'auto', 'auto', 'none']);
    const results = (model.requests[3]?.body.messages ?? []).filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results[0]).toContain('groceries');
    expect(results[1]).toContain('not valid JSON');
    expect(results[2]).toContain('no_such_tool');
  });
});

describe("the chat API's refusals", () => {
  it('answers 404 for an unknown session and writes nothing', async () => {
    const answer = await chat({ message: 'Hello', session_id: '00000000-0000-4000-8000-000000000000' });
    expect(answer.status).toBe(404);
    expect(answer.body.detail).toContain('00000000-0000-4000-8000-000000000000');
    expect(model.requests).toHaveLength(0);
  });

  it('answers 400 for a body that is not JSON, or has no message', async () => {
    const raw = await rawRequest(`${agent.url}/chat`, {
      headers: { 'content-type': 'application/json' },
      body: undefined,
    });
    expect(raw.status).toBe(400);
    const notJson = await fetch(`${agent.url}/chat`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"message": "hi"',
    });
    expect(notJson.status).toBe(400);
    expect(((await notJson.json()) as { detail: string }).detail).toContain('not valid JSON');
    for (const body of [{}, { message: '' }, { message: 42 }, ['hi']]) expect((await chat(body)).status).toBe(400);
    expect((await chat({ mesage: 'hi' })).body.detail).toContain('message');
    expect((await chat({ message: 'hi', session_id: 7 })).body.detail).toContain('session_id');
    expect(model.requests).toHaveLength(0);
  });

  it('answers 403 to web pages (an Origin) and to foreign Host names (DNS rebinding)', async () => {
    const fromPage = await rawRequest(`${agent.url}/chat`, {
      headers: { origin: 'http://evil.example', 'content-type': 'text/plain' },
      body: { message: 'Delete everything' },
    });
    expect(fromPage.status).toBe(403);
    const rebound = await rawRequest(`${agent.url}/chat`, {
      headers: { host: `evil.example:${new URL(agent.url).port}` },
      body: { message: 'Delete everything' },
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body)).toEqual({ detail: expect.stringContaining('evil.example') });
    model.reply(say('Hi.'));
    expect(
      (await rawRequest(`${agent.url.replace('127.0.0.1', 'localhost')}/chat`, { body: { message: 'Hi' } })).status,
    ).toBe(200);
    expect(model.requests).toHaveLength(1);
  });

  it('answers 405 for GET /chat and 404 elsewhere', async () => {
    expect((await rawRequest(`${agent.url}/chat`, { method: 'GET' })).status).toBe(405);
    expect((await rawRequest(`${agent.url}/sessions`, { method: 'GET' })).status).toBe(404);
  });

  it("answers 502 when the model's endpoint fails, and keeps no half conversation", async () => {
    model.reply(say('First.'));
    const started = await chat({ message: 'One' });
    // No scripted reply left: the fake endpoint answers 500.
    const failed = await chat({ message: 'Two', session_id: started.body.session_id });
    expect(failed.status).toBe(502);
    expect(failed.body.detail).toContain('500');
    model.reply(say('Third.'));
    await chat({ message: 'Three', session_id: started.body.session_id });
    expect(model.requests.at(-1)?.body.messages.map((m) => m.content)).toEqual([
      expect.any(String),
      'One',
      'First.',
      'Three',
    ]);
  });
});
