/**
 * Both protocol eras, every profile, both transports (issue 28, must-show 2): the built server
 * driven by a 2026-07-28 client (the v2 client pinned to that revision: `server/discover`, no
 * handshake, no session) and by a 2025-11-25 client (`initialize`), and over HTTP also by
 * clients that stop at 2025-06-18 and 2025-03-26. Each gets the same lists, the same answers
 * to one write, one read and one search (era-calls.ts says what may differ), and the same
 * refusal of an unknown resource.
 *
 * One HTTP server per profile serves all its clients; over stdio a process serves one
 * connection and its opening fixes the era, so each stdio client has a process (and a vault).
 */
import { Client, ProtocolError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIRDS, type Bird, normalise, STEPS } from '../../support/era-calls.js';
import { startFakeSimperium, type FakeSimperium } from '../../support/fake-simperium/index.js';
import { connectHttp, connectStdio, type Era, startHttpServer } from '../../support/mcp.js';
import { envFor } from '../../support/simplenote-subject.js';
import { removeDir, tempDir } from '../../support/temp.js';

const MODERN = '2026-07-28';
/** The 2025 revisions a client may stop at, newest first: the default client offers the first. */
const LEGACY_REVISIONS = ['2025-11-25', '2025-06-18', '2025-03-26'] as const;

interface EraClient {
  /** The revision this client was set to speak. */
  revision: string;
  bird: Bird;
  client: Client;
  /** The vault folder of the server it talks to. */
  vault: string;
}

interface Served {
  clients: EraClient[];
  close(): Promise<void>;
}

/** A vault folder, and for notarium the fake Simperium it syncs with (one per process: no shared service state). */
async function ground(profile: string, cleanup: Array<() => Promise<unknown>>) {
  const vault = await tempDir(`nk-e2e-eras-${profile}-`);
  cleanup.push(() => removeDir(vault));
  if (profile !== 'notarium') return { vault, env: {} };
  const fake: FakeSimperium = await startFakeSimperium();
  cleanup.push(() => fake.stop());
  return { vault, env: { ...(envFor(fake) as Record<string, string>), API_TIMEOUT_SECONDS: '5' } };
}

/** A client of the 2025 era that offers only `revision` in its `initialize`. */
async function legacyHttpClient(url: string, revision: string): Promise<Client> {
  const client = new Client(
    { name: `notekernel-e2e-${revision}`, version: '1.0.0' },
    { supportedProtocolVersions: [revision] },
  );
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function serveHttp(profile: string): Promise<Served> {
  const cleanup: Array<() => Promise<unknown>> = [];
  const { vault, env } = await ground(profile, cleanup);
  const server = await startHttpServer(['--profile', profile, '--vault', vault], env);
  cleanup.unshift(() => server.stop());
  const revisions = [MODERN, ...LEGACY_REVISIONS];
  const clients: EraClient[] = [];
  for (const [i, revision] of revisions.entries()) {
    const client =
      revision === MODERN
        ? await connectHttp(server.url, { era: 'modern' })
        : revision === LEGACY_REVISIONS[0]
          ? await connectHttp(server.url)
          : await legacyHttpClient(server.url, revision);
    clients.push({ revision, bird: BIRDS[i]!, client, vault });
  }
  return { clients, close: () => closeAll(clients, cleanup) };
}

async function serveStdio(profile: string): Promise<Served> {
  const cleanup: Array<() => Promise<unknown>> = [];
  const eras: Array<[Era, string]> = [
    ['modern', MODERN],
    ['legacy', LEGACY_REVISIONS[0]],
  ];
  // Started side by side: separate processes on separate vaults, nothing between them to order.
  const clients = await Promise.all(
    eras.map(async ([era, revision], i): Promise<EraClient> => {
      const { vault, env } = await ground(profile, cleanup);
      const session = await connectStdio(['serve', '--profile', profile, '--vault', vault], env, { era });
      return { revision, bird: BIRDS[i]!, client: session.client, vault };
    }),
  );
  return { clients, close: () => closeAll(clients, cleanup) };
}

async function closeAll(clients: EraClient[], cleanup: Array<() => Promise<unknown>>): Promise<void> {
  await Promise.all(clients.map((c) => c.client.close()));
  for (const step of cleanup) await step();
}

/** The error a request was refused with (the v2 client raises a JSON-RPC error as a ProtocolError). */
async function refusal(promise: Promise<unknown>): Promise<ProtocolError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!ProtocolError.isInstance(err)) throw new Error(`expected a protocol error, got ${String(err)}`);
  return err;
}

/** What a client lists: everything a client would cache, compared whole. */
async function lists(client: Client) {
  const capabilities = client.getServerCapabilities();
  return {
    tools: (await client.listTools()).tools,
    resources: capabilities?.resources ? (await client.listResources()).resources : [],
    templates: capabilities?.resources ? (await client.listResourceTemplates()).resourceTemplates : [],
    prompts: capabilities?.prompts ? (await client.listPrompts()).prompts : [],
  };
}

/**
 * Every client makes step 1, then every client step 2, and so on: when the clients share a
 * vault, each search then runs over the same notes (one per client), so rankings and scores
 * cannot differ by who searched first.
 */
async function runSteps(profile: string, clients: EraClient[]): Promise<Map<string, unknown[]>> {
  const answers = new Map<string, Array<Record<string, unknown>>>(clients.map((c) => [c.revision, []]));
  for (const step of STEPS[profile]!) {
    for (const c of clients) {
      const earlier = answers.get(c.revision)!;
      const { tool, args } = step(c.bird, earlier);
      const result = await c.client.callTool({ name: tool, arguments: args });
      const text = (result.content as Array<{ type: string; text?: string }>).find((p) => p.type === 'text')?.text;
      expect(result.isError ?? false, `${c.revision} ${tool}: ${text}`).toBe(false);
      earlier.push((result.structuredContent ?? JSON.parse(text ?? 'null')) as Record<string, unknown>);
    }
  }
  const normalised = new Map<string, unknown[]>();
  for (const c of clients) {
    const earlier = answers.get(c.revision)!;
    const ids = typeof earlier[0]?.id === 'string' ? [earlier[0].id] : [];
    normalised.set(
      c.revision,
      earlier.map((answer) => normalise(answer, { bird: c.bird, vault: c.vault, ids })),
    );
  }
  return normalised;
}

const PROFILES = ['flint', 'zettelkasten', 'agent-memory', 'notarium', 'obsidian'] as const;
const TRANSPORTS = { http: serveHttp, stdio: serveStdio } as const;

for (const profile of PROFILES) {
  for (const [transport, serve] of Object.entries(TRANSPORTS)) {
    describe(`${profile} over ${transport}`, () => {
      let served: Served;
      const reference = () => served.clients.find((c) => c.revision === LEGACY_REVISIONS[0])!;
      const others = () => served.clients.filter((c) => c !== reference());

      beforeAll(async () => {
        served = await serve(profile);
      }, 60_000);
      afterAll(async () => {
        await served?.close();
      });

      it('each client speaks the revision it asked for', () => {
        for (const c of served.clients) {
          expect(c.client.getNegotiatedProtocolVersion(), c.revision).toBe(c.revision);
          expect(c.client.getProtocolEra(), c.revision).toBe(c.revision === MODERN ? 'modern' : 'legacy');
          expect(c.client.getServerVersion(), c.revision).toEqual(reference().client.getServerVersion());
        }
      });

      it('lists the same tools, resources, templates and prompts to every era', async () => {
        const expected = await lists(reference().client);
        expect(expected.tools.length).toBeGreaterThan(0);
        for (const c of others()) expect(await lists(c.client), c.revision).toEqual(expected);
      });

      it('answers a write, a read and a search alike in every era', async () => {
        const answers = await runSteps(profile, served.clients);
        const expected = answers.get(reference().revision)!;
        // The placeholders must leave something to compare: the search found the client's note.
        expect(JSON.stringify(expected[2])).toMatch(/bird/i);
        for (const c of others()) expect(answers.get(c.revision), c.revision).toEqual(expected);
      });

      // After the writes above, so the views (recent notes, stats) hold each client's note.
      it('reads every fixed resource alike in every era', async () => {
        const { resources } = await lists(reference().client);
        // Clients of one server read one vault, every client's note in it: nothing to set aside.
        const shared = served.clients.every((c) => c.vault === reference().vault);
        const read = async (c: EraClient) => {
          const contents: unknown[] = [];
          for (const { uri } of resources)
            for (const content of (await c.client.readResource({ uri })).contents)
              contents.push(
                'text' in content && content.mimeType === 'application/json' ? JSON.parse(content.text) : content,
              );
          return shared ? contents : normalise(contents, { bird: c.bird, vault: c.vault, ids: [] });
        };
        const expected = await read(reference());
        for (const c of others()) expect(await read(c), c.revision).toEqual(expected);
      });

      it('refuses an unknown resource with -32602 in every era', async () => {
        for (const c of served.clients) {
          const err = await refusal(c.client.readResource({ uri: 'notekernel://no-such-resource' }));
          expect(err.code, c.revision).toBe(-32602);
          expect(err.data, c.revision).toMatchObject({ uri: 'notekernel://no-such-resource' });
        }
      });
    });
  }
}
