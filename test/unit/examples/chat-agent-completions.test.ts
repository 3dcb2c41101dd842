/** examples/chat-agent reads the chat completions of servers that bend OpenAI's format a little. */
import { describe, expect, it } from 'vitest';
import { parseMessage } from '../../../examples/chat-agent/chat-completions.js';

const completion = (message: unknown) => JSON.stringify({ choices: [{ index: 0, message, finish_reason: 'stop' }] });

describe('a chat completion, read', () => {
  it('keeps words and OpenAI-shaped tool calls as they are', () => {
    const call = { id: 'call_9', type: 'function', function: { name: 'search_vault', arguments: '{"query":"x"}' } };
    expect(parseMessage(completion({ role: 'assistant', content: null, tool_calls: [call] }))).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [call],
    });
    expect(parseMessage(completion({ role: 'assistant', content: 'Hi.' }))).toEqual({
      role: 'assistant',
      content: 'Hi.',
    });
  });

  it("puts object arguments and missing ids into OpenAI's shape, and drops calls without a name", () => {
    const message = parseMessage(
      completion({
        role: 'assistant',
        content: '',
        tool_calls: [
          { function: { name: 'read_file', arguments: { path: 'a.md' } } },
          { function: {} },
          { function: { name: 'list_preferences' } },
        ],
      }),
    );
    expect(message?.tool_calls).toEqual([
      { id: 'call_0', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.md"}' } },
      { id: 'call_2', type: 'function', function: { name: 'list_preferences', arguments: '{}' } },
    ]);
  });

  it('is nothing for what is not a completion', () => {
    for (const text of ['not json', '{}', '{"choices": []}', '{"choices": [{"message": "hi"}]}'])
      expect(parseMessage(text)).toBeUndefined();
  });
});
