/**
 * The SDK's Ajv validator, loaded when first constructed. The SDK's Server imports its validator
 * module (ajv, ajv-formats, fast-uri: ~250 KB, its module graph built at load: ~20 ms of a served
 * vault's start) but uses a validator only to check an elicitation answer, which no notekernel
 * tool asks for. The CLI bundle puts this module in the place of the SDK's (scripts/bundle-cli.mjs);
 * the SDK's own CommonJS build of it is required from the installed package on first use.
 */
import { createRequire } from 'node:module';
import type { AjvJsonSchemaValidator as SdkAjvValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import type {
  JsonSchemaType,
  JsonSchemaValidator,
  jsonSchemaValidator,
} from '@modelcontextprotocol/sdk/validation/types.js';

type Provider = {
  AjvJsonSchemaValidator: new (...args: ConstructorParameters<typeof SdkAjvValidator>) => SdkAjvValidator;
};

let provider: Provider | undefined;

function sdkProvider(): Provider {
  return (provider ??= createRequire(import.meta.url)('@modelcontextprotocol/sdk/validation/ajv') as Provider);
}

/** Same constructor and behaviour as the SDK's class; Ajv loads on the first validator asked for. */
export class AjvJsonSchemaValidator implements jsonSchemaValidator {
  private real: SdkAjvValidator | undefined;

  constructor(private readonly ajv?: ConstructorParameters<typeof SdkAjvValidator>[0]) {}

  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    this.real ??= new (sdkProvider().AjvJsonSchemaValidator)(this.ajv);
    return this.real.getValidator<T>(schema);
  }
}
