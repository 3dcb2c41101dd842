// Decision 011: instructions a spawned `serve` executes until its first tool answer, counted by
// valgrind's callgrind. Unlike wall or CPU time on a shared machine, the count barely moves with
// load (±0.5 % between runs), so two builds compare to a percent. Runs one build at a time: under
// valgrind a start takes seconds, and a second one beside it lets the opening's timers fire first.
//   node scripts/start-instructions.mjs <bin.cjs> <vault> <tool> '<json arguments>' [serve options…]
//   e.g. … dist/app/cli/bin.cjs <bench dir>/vault-10000-spawned get_note '{"identifier":"<id>"}'
// The three requests (initialize, initialized, the call) are written at once: no client turnaround.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const [bin, vault, tool, json = '{}', ...serveOptions] = process.argv.slice(2);
if (!bin || !vault || !tool) {
  process.stderr.write(
    'usage: node scripts/start-instructions.mjs <bin.cjs> <vault> <tool> [json arguments] [serve options…]\n',
  );
  process.exit(2);
}
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nk-callgrind-'));
const out = path.join(dir, 'callgrind.out');
const args = [
  '--tool=callgrind',
  `--callgrind-out-file=${out}`,
  '--dump-instr=no',
  process.execPath,
  bin,
  'serve',
  '--vault',
  vault,
  '--log-level',
  'warn',
  ...serveOptions,
];
// The environment an MCP client gives a server (the SDK passes on only these).
const env = Object.fromEntries(
  ['HOME', 'PATH', 'SHELL', 'TERM', 'USER', 'LOGNAME'].filter((k) => process.env[k]).map((k) => [k, process.env[k]]),
);
const child = spawn('valgrind', args, { stdio: ['pipe', 'pipe', 'ignore'], env });
let answered = false;
let received = '';
child.stdout.on('data', (chunk) => {
  received += chunk;
  if (answered || !/"id":2[,}]/.test(received)) return;
  answered = true;
  // Counts so far, written to `<out>.1`; then the server is stopped without counting its exit.
  execFileSync('callgrind_control', ['--dump', String(child.pid)], { stdio: 'ignore' });
  setTimeout(() => child.kill('SIGKILL'), 500);
});
child.on('exit', () => {
  const dump = `${out}.1`;
  const summary = fs.existsSync(dump) ? /^(?:summary|totals): (\d+)/m.exec(fs.readFileSync(dump, 'utf8')) : null;
  fs.rmSync(dir, { recursive: true, force: true });
  if (!summary) {
    process.stderr.write(`no count: the server did not answer ${tool} (is valgrind installed?)\n`);
    process.exit(1);
  }
  process.stdout.write(
    `${(Number(summary[1]) / 1e6).toFixed(1)} M instructions from spawn to the ${tool} answer (${bin})\n`,
  );
});
const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
send({
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'start-instructions', version: '1' } },
});
send({ method: 'notifications/initialized' });
send({ id: 2, method: 'tools/call', params: { name: tool, arguments: JSON.parse(json) } });
