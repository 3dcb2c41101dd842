/** What a transport owes each incoming line (app/mcp/jsonrpc-check.ts), and the id of an oversized one. */
import { describe, expect, it } from 'vitest';
import { checkLine, isUsableId } from '../../../app/mcp/jsonrpc-check.js';
import { requestId } from '../../../app/mcp/stdio-transport.js';

describe('checkLine', () => {
  it('passes a well-formed request, notification and response through', () => {
    for (const line of [
      '{"jsonrpc":"2.0","id":1,"method":"ping"}',
      '{"jsonrpc":"2.0","method":"notifications/initialized"}',
      '{"jsonrpc":"2.0","id":"a","result":{}}',
    ]) {
      expect(checkLine(line).ok).toBe(true);
    }
  });

  it('answers an id no client can match with -32600 and id null', () => {
    for (const id of ['1e308', '18446744073709551616', '-9007199254740992', '1.5', '{}', '[1]', 'null', 'true']) {
      const checked = checkLine(`{"jsonrpc":"2.0","id":${id},"method":"ping"}`);
      expect(checked).toMatchObject({
        ok: false,
        reply: { jsonrpc: '2.0', id: null, error: { code: -32600, data: { error: 'invalid_id' } } },
      });
    }
  });

  it('keeps a usable id when something else is wrong', () => {
    expect(checkLine('{"id":9007199254740991,"method":"ping"}')).toMatchObject({
      reply: { id: 9007199254740991, error: { code: -32600 } },
    });
    expect(checkLine('{"jsonrpc":"2.0","id":"x","method":"ping","params":"p"}')).toMatchObject({
      reply: { id: 'x', error: { message: 'Invalid Request: "params" must be an object.' } },
    });
  });

  it('answers garbage with -32700 and a batch with -32600, both id null', () => {
    expect(checkLine('not json')).toMatchObject({ reply: { id: null, error: { code: -32700 } } });
    expect(checkLine('[{"jsonrpc":"2.0","id":1,"method":"ping"}]')).toMatchObject({
      reply: { id: null, error: { code: -32600, data: { error: 'batch_not_supported', messages: 1 } } },
    });
  });

  it('logs a malformed response without answering it', () => {
    const checked = checkLine('{"jsonrpc":"2.0","id":3,"result":"text"}');
    expect(checked.ok).toBe(false);
    expect(checked).not.toHaveProperty('reply');
  });

  it('takes strings and safe integers only as ids', () => {
    expect([
      isUsableId('x'),
      isUsableId(0),
      isUsableId(-7),
      isUsableId(2 ** 53),
      isUsableId(0.5),
      isUsableId(null),
    ]).toEqual([true, true, true, false, false, false]);
  });
});

describe('requestId of an oversized line', () => {
  it('reads an integer or string id at either end, and never a prefix of another number', () => {
    expect(requestId('{"jsonrpc":"2.0","id":42,"method":"x","params":{"a":"', '"}}')).toBe(42);
    expect(requestId('{"jsonrpc":"2.0","method":"x","params":{"a":"', '"}},"id":"req-1"}')).toBe('req-1');
    expect(requestId('{"jsonrpc":"2.0","id":1.5,"method":"x","params":{"a":"', '"}}')).toBeNull();
    expect(requestId('{"jsonrpc":"2.0","id":1e308,"method":"x","params":{"a":"', '"}}')).toBeNull();
    expect(requestId('{"jsonrpc":"2.0","id":18446744073709551616,"method":"x","params":{"a":"', '"}}')).toBeNull();
    expect(requestId('{"jsonrpc":"2.0","method":"x","params":{"a":"', '"}},"id":2.5}')).toBeNull();
  });
});
