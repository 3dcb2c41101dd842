/**
 * Who asked for the tool call this code runs under (an MCP client's `name version`, `cli`, else
 * `library`), for the operation journal (decision 025) without threading it through every call.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const current = new AsyncLocalStorage<string>();

export function withCaller<T>(caller: string, work: () => Promise<T>): Promise<T> {
  return current.run(caller, work);
}

export function callCaller(): string {
  return current.getStore() ?? 'library';
}
