/**
 * `.ts` config files (issue 31). cosmiconfig's own loader asks for `typescript` from its own
 * folder: beside a globally installed notekernel there is none, though the user's project —
 * where the config file lives — has it. This loader looks from the config file's folder first,
 * then beside notekernel, transpiles the file to an ES module next to it (so its own relative
 * imports resolve), imports it and removes the copy. A config's default export is the config.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** The part of the typescript package this loader uses. */
interface TypeScriptApi {
  transpileModule(
    input: string,
    options: { compilerOptions: Record<string, unknown>; fileName?: string },
  ): { outputText: string };
  ModuleKind: { ES2022: number };
  ModuleResolutionKind: { Bundler: number };
  ScriptTarget: { ES2022: number };
}

async function typescriptFor(filepath: string): Promise<TypeScriptApi> {
  try {
    return createRequire(filepath)('typescript') as TypeScriptApi;
  } catch {
    // not installed where the config is: the one beside notekernel, if any
  }
  try {
    const loaded = (await import('typescript')) as unknown as { default?: TypeScriptApi } & TypeScriptApi;
    return loaded.default ?? loaded;
  } catch {
    throw new Error(
      'a .ts config needs the "typescript" package, installed in the project that holds the config file (npm install -D typescript) or beside notekernel; or write the config as .yaml, .json or .mjs',
    );
  }
}

export async function loadTsConfig(filepath: string, content: string): Promise<unknown> {
  const ts = await typescriptFor(filepath);
  const compiled = `${filepath}.${randomUUID()}.mjs`;
  try {
    const output = ts.transpileModule(content, {
      fileName: filepath,
      compilerOptions: {
        module: ts.ModuleKind.ES2022,
        moduleResolution: ts.ModuleResolutionKind.Bundler,
        target: ts.ScriptTarget.ES2022,
      },
    }).outputText;
    await fs.writeFile(compiled, output);
    const loaded = (await import(pathToFileURL(compiled).href)) as { default?: unknown };
    return loaded.default;
  } finally {
    await fs.rm(compiled, { force: true });
  }
}
