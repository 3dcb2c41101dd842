/**
 * The agent on the command line (seed 004's qwen_agent.py): one conversation, typed line by line,
 * answered by the model with notekernel's tools — no HTTP server. The same settings as main.ts.
 *   OPENAI_BASE_URL=http://127.0.0.1:8080/v1 OPENAI_MODEL=qwen2.5 node dist/chat-cli.js --vault ~/Notes
 * On a terminal it prompts `You: `; piped, it reads one message a line and prints one answer a
 * line. Tool calls are shown on stderr. `exit`, `quit` or end of input stops it.
 */
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';
import { runTurn } from './agent.js';
import type { ChatMessage } from './chat-completions.js';
import { readConfig } from './config.js';
import { connectNotekernel, toToolDefinitions } from './notekernel-tools.js';
import { preferencesOf } from './preferences.js';
import { systemPrompt } from './system-prompt.js';

export async function chatOnTerminal(
  argv: string[],
  env: NodeJS.ProcessEnv,
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  log: (text: string) => void,
): Promise<void> {
  const config = readConfig(argv, env);
  const client = await connectNotekernel(config.server);
  try {
    const { tools } = await client.listTools();
    const toolNames = tools.map((t) => t.name);
    const preferences = await preferencesOf(client, config.server.vault);
    const deps = { chat: config.chat, client, tools: toToolDefinitions(tools), maxSteps: config.maxSteps };
    const history: ChatMessage[] = [];
    const terminal = (input as { isTTY?: boolean }).isTTY === true;
    log(
      `chatting with ${config.chat.model} over ${toolNames.length} notekernel tools (${config.server.profile}, ${config.server.vault}); exit or Ctrl-D to stop\n`,
    );
    const lines = readline.createInterface({ input, output, terminal, prompt: 'You: ' });
    if (terminal) lines.prompt();
    for await (const line of lines) {
      const message = line.trim();
      if (message === 'exit' || message === 'quit') break;
      if (message) {
        try {
          const turn = await runTurn(deps, systemPrompt(await preferences.read(), toolNames), history, message);
          history.push(...turn.added);
          for (const call of turn.toolCalls)
            log(`  [${call.name}${call.is_error ? ' failed' : ''}] ${JSON.stringify(call.arguments)}\n`);
          output.write(`${terminal ? 'Agent: ' : ''}${turn.answer}\n`);
        } catch (err) {
          // The turn is dropped (the history keeps nothing of it); the conversation goes on.
          log(`error: ${(err as Error).message}\n`);
        }
      }
      if (terminal) lines.prompt();
    }
    lines.close();
  } finally {
    await client.close();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  chatOnTerminal(process.argv.slice(2), process.env, process.stdin, process.stdout, (text) =>
    process.stderr.write(text),
  ).catch((err: Error) => {
    console.error(err.message);
    process.exit(1);
  });
}
