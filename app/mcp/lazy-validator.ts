/**
 * The SDK's `@modelcontextprotocol/server/_shims` module as the CLI bundle carries it
 * (scripts/bundle-cli.mjs): the same exports, but the JSON Schema validator loads Ajv on the first
 * validator asked for. The SDK's own shim imports its Ajv provider at load (ajv, ajv-formats,
 * fast-uri: ~280 KB, the module graph built at once, ~13 ms of CPU at every served start) for a
 * check no notekernel tool asks for: an elicitation answer, a tool schema given as JSON Schema to
 * its McpServer. On first use the installed package's CommonJS build of the provider is required.
 */
import { createRequire } from 'node:module';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/server';
import type { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';

export { default as process } from 'node:process';

type Provider = { AjvJsonSchemaValidator: typeof AjvJsonSchemaValidator };

let provider: Provider | undefined;

/** Same constructor and answers as the SDK's default (Ajv) validator; Ajv loads on the first getValidator. */
export class DefaultJsonSchemaValidator implements jsonSchemaValidator {
  private real: AjvJsonSchemaValidator | undefined;

  constructor(private readonly ajv?: ConstructorParameters<typeof AjvJsonSchemaValidator>[0]) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    provider ??= createRequire(import.meta.url)('@modelcontextprotocol/server/validators/ajv') as Provider;
    this.real ??= new provider.AjvJsonSchemaValidator(this.ajv);
    return this.real.getValidator<T>(schema);
  }
}
