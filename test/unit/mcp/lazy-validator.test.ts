/**
 * The stand-in for the SDK's `_shims` module (app/mcp/lazy-validator.ts): the same answers as the
 * SDK's Ajv validator, and Ajv not loaded until a validator is asked for. The built CLI bundle
 * holds no Ajv.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AjvJsonSchemaValidator as SdkValidator } from '@modelcontextprotocol/server/validators/ajv';
import { DefaultJsonSchemaValidator, process as shimProcess } from '../../../app/mcp/lazy-validator.js';
import { REPO_ROOT } from '../../support/cli.js';

const schema = {
  type: 'object',
  properties: { email: { type: 'string', format: 'email' }, count: { type: 'integer', minimum: 1 } },
  required: ['email'],
} as const;

// The SDK's ES module build (imported above, for comparison) holds Ajv too: what the stand-in
// loads is the SDK's CommonJS build of the provider.
const providerLoaded = () =>
  Object.keys(createRequire(import.meta.url).cache).some((file) =>
    /@modelcontextprotocol[\\/]server[\\/]dist[\\/]ajvProvider-[\w-]+\.cjs$/.test(file),
  );

describe('lazy JSON Schema validator', () => {
  it('loads the SDK’s validator only when a validator is asked for, and answers as the SDK does', () => {
    const lazy = new DefaultJsonSchemaValidator();
    expect(providerLoaded()).toBe(false);
    const ours = lazy.getValidator<{ email: string }>(schema);
    expect(providerLoaded()).toBe(true);
    const sdk = new SdkValidator().getValidator<{ email: string }>(schema);
    for (const input of [{ email: 'a@b.org', count: 2 }, { email: 'not an address' }, { count: 0 }, 'text']) {
      expect(ours(input)).toEqual(sdk(input));
    }
    expect(ours({ email: 'a@b.org' })).toEqual({ valid: true, data: { email: 'a@b.org' }, errorMessage: undefined });
    expect(ours({ count: 0 }).valid).toBe(false);
    expect(shimProcess).toBe(process);
  });

  it('is what the built bundle holds in place of the SDK’s shim', () => {
    const bundle = path.join(REPO_ROOT, 'dist', 'app', 'cli', 'bundle');
    const chunks = fs.readdirSync(bundle).filter((file) => file.endsWith('.cjs'));
    expect(chunks.length).toBeGreaterThan(0);
    const texts = chunks.map((chunk) => fs.readFileSync(path.join(bundle, chunk), 'utf8'));
    texts.forEach((text, i) => expect(text, chunks[i]).not.toMatch(/server\/dist\/ajvProvider-/));
    expect(texts.some((text) => text.includes('@modelcontextprotocol/server/validators/ajv'))).toBe(true);
  });
});
