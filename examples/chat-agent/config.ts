/**
 * Where the agent's pieces come from: the chat endpoint from the environment (as every
 * OpenAI-compatible client reads it), the notekernel server and the HTTP port from flags.
 */
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

export interface ChatEndpoint {
  /** e.g. http://127.0.0.1:8080/v1 — `/chat/completions` is appended. */
  baseUrl: string;
  model: string;
  /** Sent as a bearer token when set; local servers usually need none. */
  apiKey?: string;
}

export interface NotekernelServer {
  /** The program and its leading arguments, e.g. ['notekernel'] or ['node', 'dist/app/cli/bin.cjs']. */
  command: string[];
  profile: string;
  vault: string;
}

export interface AgentConfig {
  chat: ChatEndpoint;
  server: NotekernelServer;
  host: string;
  port: number;
  /** Model rounds that may call tools before the model is asked to answer without them. */
  maxSteps: number;
}

const USAGE = `Usage: node main.js --vault <folder> [--profile obsidian] [--port 8000] [--max-steps 10]
  [--server-command "notekernel"]
Environment: OPENAI_BASE_URL (required, e.g. http://127.0.0.1:8080/v1), OPENAI_MODEL (required), OPENAI_API_KEY (optional)`;

function wholeNumber(name: string, text: string, min: number, max: number): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < min || value > max)
    throw new Error(`--${name} must be a whole number from ${min} to ${max}, got "${text}"\n${USAGE}`);
  return value;
}

function required(name: string, value: string | undefined): string {
  if (!value) throw new Error(`${name} is not set\n${USAGE}`);
  return value;
}

function expandHome(p: string): string {
  return p === '~' || p.startsWith('~/') ? path.join(os.homedir(), p.slice(1)) : p;
}

function parseFlags(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        vault: { type: 'string' },
        profile: { type: 'string', default: 'obsidian' },
        port: { type: 'string', default: '8000' },
        'max-steps': { type: 'string', default: '10' },
        'server-command': { type: 'string', default: 'notekernel' },
      },
      strict: true,
    }).values;
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${USAGE}`);
  }
}

export function readConfig(argv: string[], env: NodeJS.ProcessEnv): AgentConfig {
  const flags = parseFlags(argv);
  const vault = required('--vault (or VAULT_PATH)', flags.vault ?? env.VAULT_PATH);
  return {
    chat: {
      baseUrl: required('OPENAI_BASE_URL', env.OPENAI_BASE_URL),
      model: required('OPENAI_MODEL', env.OPENAI_MODEL),
      ...(env.OPENAI_API_KEY ? { apiKey: env.OPENAI_API_KEY } : {}),
    },
    server: {
      command: flags['server-command'].split(/\s+/).filter(Boolean),
      profile: flags.profile,
      vault: path.resolve(expandHome(vault)),
    },
    // The seed binds to loopback only: the API has no authentication.
    host: '127.0.0.1',
    port: wholeNumber('port', flags.port, 0, 65535),
    maxSteps: wholeNumber('max-steps', flags['max-steps'], 1, 100),
  };
}
