/**
 * With the strict answer check (KernelExtras.checkToolOutputs; the app turns it on for
 * NOTEKERNEL_CHECK_TOOL_OUTPUTS=1, which test/support/setup-env.ts sets for every test process),
 * a handler and its schema that disagree fail the call, naming the tool and the path, instead of
 * reaching a client that checks the answer and refuses it.
 */
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { NotekernelError } from '../../../kernel/errors.js';
import { ToolRegistry } from '../../../kernel/registry.js';
import { defineTool, type ToolContext } from '../../../kernel/tool.js';

const ctx = {} as ToolContext;

function registryWith(answer: unknown, output: z.ZodType) {
  const registry = new ToolRegistry({ rename: {}, hide: [] }, { readOnly: false }, undefined, undefined, {
    checkToolOutputs: true,
  });
  registry.add(
    'probe',
    defineTool({
      name: 'probe',
      description: 'answers what it is given',
      input: z.object({}),
      output,
      annotations: { readOnlyHint: true },
      handler: async () => answer,
    }),
  );
  return registry;
}

describe('tool answers checked against their output schemas', () => {
  it('is on in every test process', () => {
    expect(process.env.NOTEKERNEL_CHECK_TOOL_OUTPUTS).toBe('1');
  });

  it('lets an answer through that matches, notices and undeclared fields included', async () => {
    const registry = registryWith({ count: 2, extra: true }, z.object({ count: z.number() }));
    await expect(registry.invoke('probe', {}, ctx)).resolves.toEqual({ count: 2, extra: true });
  });

  it('refuses an answer that does not match as internal, naming the tool and the path', async () => {
    const registry = registryWith(
      { notes: [{ id: 'a' }, { id: 3 }] },
      z.object({ notes: z.array(z.object({ id: z.string() })) }),
    );
    const err = await registry.invoke('probe', {}, ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotekernelError);
    expect((err as NotekernelError).code).toBe('internal');
    expect((err as NotekernelError).message).toMatch(/probe/);
    expect((err as NotekernelError).message).toMatch(/notes\.1\.id/);
  });

  it('checks the answer as JSON, as a client receives it: a Date is a string, undefined is absent', async () => {
    const registry = registryWith(
      { at: new Date(0), gone: undefined },
      z.object({ at: z.string(), gone: z.string().optional() }),
    );
    await expect(registry.invoke('probe', {}, ctx)).resolves.toBeDefined();
  });

  it('checks a non-object answer as MCP wraps it, under result', async () => {
    await expect(
      registryWith(['a'], z.object({ result: z.array(z.string()) })).invoke('probe', {}, ctx),
    ).resolves.toEqual(['a']);
    await expect(registryWith([1], z.object({ result: z.array(z.string()) })).invoke('probe', {}, ctx)).rejects.toThrow(
      /result\.0/,
    );
  });
});
