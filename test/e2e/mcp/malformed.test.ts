/**
 * Malformed JSON-RPC against the built server (issue 32, item 5): over stdio each line that is
 * not one usable request — an id no client can match (1e308, 2^64, 1.5, an object, an array,
 * null), a line that is not JSON, a batch, a bare value, a request with a bad member — gets
 * exactly one JSON-RPC error with the standard code and the id JSON-RPC prescribes, the server
 * answers the next request, and stdout carries nothing but JSON-RPC frames. Over Streamable
 * HTTP the same bodies get a 400 with the same error body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIALIZE, jsonOf, rawRequest } from '../../support/raw-http.js';
import { startRawStdio, type RawFrame, type RawStdioServer } from '../../support/raw-stdio.js';
import { startHttpServer, type HttpServerProcess } from '../../support/mcp.js';
import { removeDir, tempDir } from '../../support/temp.js';

const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;

interface Case {
  name: string;
  line: string;
  code: number;
  id: string | number | null;
  message: RegExp;
}

const ping = (id: unknown) => `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"ping"}`;
const BAD_ID = /the id must be a string or an integer/;

const CASES: Case[] = [
  {
    name: 'id 1e308',
    line: '{"jsonrpc":"2.0","id":1e308,"method":"ping"}',
    code: INVALID_REQUEST,
    id: null,
    message: /got 1e\+308, an integer too large/,
  },
  {
    name: 'id 2^64',
    line: '{"jsonrpc":"2.0","id":18446744073709551616,"method":"ping"}',
    code: INVALID_REQUEST,
    id: null,
    message: /too large to carry exactly/,
  },
  {
    name: 'id 1.5',
    line: '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
    code: INVALID_REQUEST,
    id: null,
    message: /got 1\.5, not an integer/,
  },
  {
    name: 'an object id',
    line: '{"jsonrpc":"2.0","id":{"n":1},"method":"ping"}',
    code: INVALID_REQUEST,
    id: null,
    message: /got an object/,
  },
  {
    name: 'an array id',
    line: '{"jsonrpc":"2.0","id":[1],"method":"ping"}',
    code: INVALID_REQUEST,
    id: null,
    message: /got an array/,
  },
  {
    name: 'a null id',
    line: '{"jsonrpc":"2.0","id":null,"method":"ping"}',
    code: INVALID_REQUEST,
    id: null,
    message: BAD_ID,
  },
  {
    name: 'a line that is not JSON',
    line: 'hello, is this the MCP server?',
    code: PARSE_ERROR,
    id: null,
    message: /Parse error/,
  },
  {
    name: 'JSON cut short',
    line: '{"jsonrpc":"2.0","id":5,"method":"pi',
    code: PARSE_ERROR,
    id: null,
    message: /Parse error/,
  },
  {
    name: 'a batch',
    line: `[${ping(11)},${ping(12)}]`,
    code: INVALID_REQUEST,
    id: null,
    message: /batches \(JSON arrays\) are not supported/,
  },
  { name: 'an empty batch', line: '[]', code: INVALID_REQUEST, id: null, message: /batches/ },
  { name: 'a bare number', line: '42', code: INVALID_REQUEST, id: null, message: /is an object, not a number/ },
  {
    name: 'no "jsonrpc" (id kept)',
    line: '{"id":21,"method":"ping"}',
    code: INVALID_REQUEST,
    id: 21,
    message: /"jsonrpc" must be "2.0"/,
  },
  {
    name: 'a method that is no string (id kept)',
    line: '{"jsonrpc":"2.0","id":"req-22","method":7}',
    code: INVALID_REQUEST,
    id: 'req-22',
    message: /"method" must be a string/,
  },
  {
    name: 'params that are an array (id kept)',
    line: '{"jsonrpc":"2.0","id":23,"method":"tools/list","params":[1]}',
    code: INVALID_REQUEST,
    id: 23,
    message: /"params" must be an object/,
  },
  {
    name: 'an unknown member (id kept)',
    line: '{"jsonrpc":"2.0","id":24,"method":"ping","extra":true}',
    code: INVALID_REQUEST,
    id: 24,
    message: /unexpected member "extra"/,
  },
  {
    name: 'no method (id kept)',
    line: '{"jsonrpc":"2.0","id":25}',
    code: INVALID_REQUEST,
    id: 25,
    message: /needs a "method"/,
  },
];

let root: string;

beforeAll(async () => {
  root = await tempDir('nk-e2e-malformed-');
});

afterAll(async () => {
  await removeDir(root);
});

describe('over stdio', () => {
  let server: RawStdioServer;
  let next = 1000;

  beforeAll(async () => {
    server = await startRawStdio(['--profile', 'flint', '--vault', root]);
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
  });

  /**
   * The responses written after `line` up to and including the answer to a ping sent after it
   * (the log notifications the client may also get, notifications/message, are not responses).
   */
  async function framesAfter(line: string): Promise<{ frames: RawFrame[]; pingId: number }> {
    const before = server.lines.length;
    const pingId = next++;
    server.write(line);
    server.write(ping(pingId));
    await server.answerTo(pingId);
    const frames = server.lines.slice(before).map((l) => JSON.parse(l) as RawFrame & { method?: unknown });
    return { frames: frames.filter((f) => f.method === undefined), pingId };
  }

  for (const c of CASES) {
    it(`answers ${c.name} with one ${c.code} error, id ${JSON.stringify(c.id)}, and keeps serving`, async () => {
      const { frames, pingId } = await framesAfter(c.line);
      expect(frames).toHaveLength(2);
      const errors = frames.filter((f) => f.error);
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({
        jsonrpc: '2.0',
        id: c.id,
        error: { code: c.code, message: expect.stringMatching(c.message) },
      });
      expect(frames.find((f) => !f.error)).toEqual({ jsonrpc: '2.0', id: pingId, result: {} });
    });
  }

  it('answers nothing to a malformed response or a notification, and keeps serving', async () => {
    for (const line of [
      '{"jsonrpc":"2.0","id":31,"result":"not an object"}',
      '{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}',
      '',
      '   ',
    ]) {
      const { frames, pingId } = await framesAfter(line);
      expect(frames).toEqual([{ jsonrpc: '2.0', id: pingId, result: {} }]);
    }
  });

  it('still answers a real call after all of them', async () => {
    server.write(
      '{"jsonrpc":"2.0","id":"after","method":"tools/call","params":{"name":"list_note_types","arguments":{}}}',
    );
    const answer = await server.answerTo('after');
    expect(answer.error).toBeUndefined();
    expect(answer.result).toMatchObject({ structuredContent: expect.any(Object) });
  });

  it('wrote nothing to stdout but JSON-RPC frames, and logged each refusal to stderr', () => {
    for (const line of server.lines) {
      const frame = JSON.parse(line) as RawFrame & { method?: unknown };
      expect(frame.jsonrpc).toBe('2.0');
      // A response, or a notification (the log lines a client gets as notifications/message).
      if (frame.method === undefined) expect('result' in frame || 'error' in frame).toBe(true);
      else expect(frame).not.toHaveProperty('id');
    }
    const logged = server.stderr().match(/could not be taken/g) ?? [];
    expect(logged.length).toBeGreaterThanOrEqual(CASES.length + 1);
    expect(server.child.exitCode).toBeNull();
  });
});

describe('an oversized line over stdio', () => {
  it('never answers a fractional or unsafe id as another id', async () => {
    const server = await startRawStdio(['--profile', 'flint', '--vault', root], {
      NOTEKERNEL_MAX_MESSAGE_BYTES: '65536',
    });
    try {
      const big = 'x'.repeat(100_000);
      for (const id of ['1.5', '18446744073709551616', '1e308']) {
        const before = server.lines.length;
        server.write(
          `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"create_note","arguments":{"title":"t","content":"${big}"}}}`,
        );
        server.write(ping(`after-${id}`));
        await server.answerTo(`after-${id}`);
        const frames = server.lines
          .slice(before)
          .map((l) => JSON.parse(l) as RawFrame & { method?: unknown })
          .filter((f) => f.method === undefined);
        expect(frames).toHaveLength(2);
        expect(frames.find((f) => f.error)).toMatchObject({
          id: null,
          error: { code: INVALID_REQUEST, data: { error: 'too_large' } },
        });
      }
      // An integer id at the end, as the SDK writes it, is still answered by id.
      server.write(
        `{"jsonrpc":"2.0","method":"tools/call","params":{"name":"create_note","arguments":{"title":"t","content":"${big}"}},"id":77}`,
      );
      expect(await server.answerTo(77)).toMatchObject({
        error: { code: INVALID_REQUEST, data: { error: 'too_large' } },
      });
    } finally {
      await server.stop();
    }
  }, 30_000);
});

describe('over Streamable HTTP', () => {
  let server: HttpServerProcess;
  let headers: Record<string, string>;

  beforeAll(async () => {
    server = await startHttpServer(['--profile', 'flint', '--vault', root]);
    const init = await rawRequest(server.url, { body: INITIALIZE });
    headers = { 'mcp-session-id': init.headers['mcp-session-id'] as string, 'mcp-protocol-version': '2025-06-18' };
    await rawRequest(server.url, { body: { jsonrpc: '2.0', method: 'notifications/initialized' }, headers });
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
  });

  for (const c of CASES) {
    it(`answers ${c.name} with 400 and the same ${c.code} error`, async () => {
      const answer = await rawRequest(server.url, { body: c.line, headers });
      expect(answer.status).toBe(400);
      expect(jsonOf(answer)).toMatchObject({
        jsonrpc: '2.0',
        id: c.id,
        error: { code: c.code, message: expect.stringMatching(c.message) },
      });
    });
  }

  it('answers the same without a session, before asking for one', async () => {
    const answer = await rawRequest(server.url, { body: CASES[2]?.line });
    expect(answer.status).toBe(400);
    expect(jsonOf(answer)).toMatchObject({
      id: null,
      error: { code: INVALID_REQUEST, message: expect.stringMatching(BAD_ID) },
    });
  });

  it('keeps the session serving afterwards', async () => {
    const answer = await rawRequest(server.url, { body: ping(500), headers });
    expect(answer.status).toBe(200);
    expect(jsonOf(answer)).toEqual({ jsonrpc: '2.0', id: 500, result: {} });
  });

  it('still takes a batch from a client of MCP 2025-03-26, which had them', async () => {
    const answer = await rawRequest(server.url, {
      body: `[${ping(601)},${ping(602)}]`,
      headers: { ...headers, 'mcp-protocol-version': '2025-03-26' },
    });
    expect(answer.status).toBe(200);
    const text = answer.body;
    expect(text).toMatch(/"id":601/);
    expect(text).toMatch(/"id":602/);
  });
});
