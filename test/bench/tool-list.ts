/**
 * Issue 15 item 10: the bytes of each profile's tools/list answer, the weight every MCP client
 * pays before its first call. Listed over a real SDK client (in-memory pair) against a kernel on
 * a temp vault. Two rows a profile (decision 017): the model-facing part (each tool without its
 * outputSchema: what a host hands the model; issue 15's target applies to flint's), and the
 * output schemas, which the client alone reads to check structuredContent. Both are measured on
 * the same list, whose whole size is the baseline.
 */
import { connectInMemory } from '../support/mcp-in-memory.js';
import { simplenoteBackendWith } from '../../backends/simplenote/index.js';
import { builtinCatalogue } from '../../profiles/catalogue.js';
import { startFakeSimperium } from '../support/fake-simperium/index.js';
import { envFor } from '../support/simplenote-subject.js';
import { createTestKernel } from '../support/temp.js';
import type { BenchRow } from './stats.js';

/** Issue 15's target for flint's model-facing bytes; the other profiles are reported. */
const TARGET: Record<string, number> = { flint: 25_000 };

export async function benchToolList(): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const fake = await startFakeSimperium();
  try {
    for (const profile of ['flint', 'zettelkasten', 'agent-memory', 'obsidian', 'notarium']) {
      const catalogue =
        profile === 'notarium'
          ? {
              ...builtinCatalogue,
              backends: builtinCatalogue.backends.map((b) =>
                b.id === 'simplenote' ? simplenoteBackendWith({ env: envFor(fake) }) : b,
              ),
            }
          : undefined;
      const config =
        profile === 'obsidian'
          ? { search: { backend: 'hybrid-search', options: { embedder: 'hashed', embedThreads: 0 } } }
          : undefined;
      const t = await createTestKernel({ profile, ...(config ? { config } : {}), ...(catalogue ? { catalogue } : {}) });
      const client = await connectInMemory(t.vault, { name: 'bench' });
      try {
        const { tools } = await client.listTools();
        const whole = Buffer.byteLength(JSON.stringify({ tools }), 'utf8');
        const modelFacing = Buffer.byteLength(
          JSON.stringify({ tools: tools.map(({ outputSchema: _omitted, ...rest }) => rest) }),
          'utf8',
        );
        const outputSchemas = tools.reduce(
          (sum, tool) => sum + Buffer.byteLength(JSON.stringify(tool.outputSchema ?? null), 'utf8'),
          0,
        );
        const target = TARGET[profile];
        const name = `tools/list ${profile} (${tools.length} tools)`;
        const baseline = `whole list: ${whole} bytes`;
        rows.push({
          bench: `${name}, model-facing`,
          value: `${modelFacing} bytes`,
          target: target ? `≤ ${target} bytes` : '(reported)',
          baseline,
          ratio: `${(modelFacing / whole).toFixed(2)}x`,
          pass: target ? modelFacing <= target : true,
        });
        rows.push({
          bench: `${name}, output schemas`,
          value: `${outputSchemas} bytes`,
          target: '(reported)',
          baseline,
          ratio: `${(outputSchemas / whole).toFixed(2)}x`,
          pass: true,
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
