/** Runs the CLI with this process's arguments; the entry the bundle is built from (see bin.ts). */
import { main } from './main.js';

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`notekernel: ${String(err)}\n`);
    process.exitCode = 1;
  },
);
