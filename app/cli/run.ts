/** Runs the CLI with this process's arguments; the entry the bundle is built from (see bin.cts). */
import { config } from 'zod';
import { main } from './main.js';

// zod compiles a parser for each object schema with new Function() on its first parse: worth it
// for a schema parsed many times, not for the hundreds the MCP SDK and our tools each parse a few
// times in a process's first second (callgrind, served vault, initialize + get_note: 6 % fewer
// instructions). The CLI process only; the library leaves an embedder's zod settings alone.
config({ jitless: true });

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`notekernel: ${String(err)}\n`);
    process.exitCode = 1;
  },
);
