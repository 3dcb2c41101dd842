/**
 * A generic MCP client: spawns `notekernel serve` over stdio, lists its tools, writes and
 * reads a note. Run after `npm run build`:  node --experimental-strip-types examples/stdio-client.ts ./notes
 * (or compile it with tsc). Any MCP client works the same way.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

export async function demo(vault: string, cli = 'dist/app/cli/bin.cjs'): Promise<string[]> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [cli, 'serve', '--profile', 'flint', '--vault', vault] });
  const client = new Client({ name: 'example-client', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    await client.callTool({ name: 'create_note', arguments: { title: 'From a client', content: 'Hello over MCP.' } });
    const note = await client.callTool({ name: 'get_note', arguments: { identifier: 'general/from-a-client.md', fields: ['title', 'content_hash'] } });
    console.log(JSON.stringify(note.content, null, 2));
    return tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

if (process.argv[1]?.endsWith('stdio-client.ts') && process.argv[2]) {
  demo(process.argv[2]).then((names) => console.log('tools:', names.join(', ')));
}
