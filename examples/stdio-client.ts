/**
 * A generic MCP client: spawns `notekernel serve` over stdio, lists its tools, writes and
 * reads a note. With notekernel installed (`npm install -g notekernel`), compile and run:
 *   node stdio-client.js ./notes
 * From a clone after `npm run build`, pass the command: demo('./notes', ['node', 'dist/app/cli/bin.cjs']).
 * Any MCP client works the same way.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

export async function demo(vault: string, command: string[] = ['notekernel']): Promise<string[]> {
  const [program = 'notekernel', ...prefix] = command;
  const transport = new StdioClientTransport({
    command: program,
    args: [...prefix, 'serve', '--profile', 'flint', '--vault', vault],
  });
  const client = new Client({ name: 'example-client', version: '1.0.0' });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    await client.callTool({ name: 'create_note', arguments: { title: 'From a client', content: 'Hello over MCP.' } });
    const note = await client.callTool({
      name: 'get_note',
      arguments: { identifier: 'general/from-a-client.md', fields: ['title', 'content_hash'] },
    });
    console.log(JSON.stringify(note.content, null, 2));
    return tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url) && process.argv[2]) {
  demo(process.argv[2]).then((names) => console.log('tools:', names.join(', ')));
}
