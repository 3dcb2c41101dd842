/**
 * Who asked for the tool call this code runs under, as the operation journal records it
 * (decision 025): the MCP client's name and version from its `initialize`, `cli` for the
 * command line, `library` for a program calling `vault.call()` directly. A surface passes it
 * as `CallOptions.caller`; the journal asks `callCaller()` instead of threading it through.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<string>();

export function withCaller<T>(caller: string, work: () => Promise<T>): Promise<T> {
  return current.run(caller, work);
}

export function callCaller(): string {
  return current.getStore() ?? 'library';
}
