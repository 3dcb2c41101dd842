/**
 * Issue 15 item 10: the bytes of each profile's tools/list answer, the weight every MCP client
 * pays before its first call. Listed over a real SDK client (in-memory pair) against a kernel on
 * a temp vault. Baseline, same run: the same list without output schemas, so the row shows what
 * the precise answers' schemas (decision 017) cost beside the descriptions and inputs.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpServer } from '../../app/mcp/server.js';
import { simplenoteBackendWith } from '../../backends/simplenote/index.js';
import { builtinCatalogue } from '../../profiles/catalogue.js';
import { startFakeSimperium } from '../support/fake-simperium/index.js';
import { envFor } from '../support/simplenote-subject.js';
import { createTestKernel } from '../support/temp.js';
import type { BenchRow } from './stats.js';

/** Issue 15's target for flint; the other profiles have no target and are reported. */
const TARGET: Record<string, number> = { flint: 25_000 };

export async function benchToolList(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const fake = await startFakeSimperium();
  try {
    for (const profile of ['flint', 'zettelkasten', 'agent-memory', 'obsidian', 'notarium']) {
      const catalogue =
        profile === 'notarium' ? { ...builtinCatalogue, backends: builtinCatalogue.backends.map((b) => (b.id === 'simplenote' ? simplenoteBackendWith({ env: envFor(fake) }) : b)) } : undefined;
      const config = profile === 'obsidian' ? { search: { backend: 'hybrid-search', options: { embedder: 'hashed', embedThreads: 0 } } } : undefined;
      const t = await createTestKernel({ profile, ...(config ? { config } : {}), ...(catalogue ? { catalogue } : {}) });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await createMcpServer(t.vault).connect(serverSide);
      const client = new Client({ name: 'bench', version: '1' });
      await client.connect(clientSide);
      try {
        const { tools } = await client.listTools();
        const bytes = Buffer.byteLength(JSON.stringify({ tools }), 'utf8');
        const bare = Buffer.byteLength(JSON.stringify({ tools: tools.map(({ outputSchema: _omitted, ...rest }) => rest) }), 'utf8');
        const target = TARGET[profile];
        rows.push({
          bench: `tools/list ${profile} (${tools.length} tools)`,
          value: `${bytes} bytes`,
          target: target ? `≤ ${target} bytes` : '(reported)',
          baseline: `without output schemas: ${bare} bytes`,
          ratio: `${(bytes / bare).toFixed(2)}x`,
          pass: target ? bytes <= target : true,
        });
      } finally {
        await client.close();
        await t.close();
      }
    }
  } finally {
    await fake.stop();
  }
  return rows;
}
