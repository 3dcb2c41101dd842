/**
 * The layers of decision 015, checked on the source: kernel at the bottom; toolkit on it; plugins
 * and backends side by side on both; profiles above; app (CLI, MCP server, library entry) on top.
 * A backend imports no plugin and no other backend. A plugin meets another plugin only through
 * the other's public face (decision 041): a token module, which holds type declarations, type
 * imports and `export const X = token<T>('…')` lines and nothing else, so importing it brings no
 * code; and no two plugin folders import each other, even through token modules. Imports of
 * packages and of Node's modules are not layers and are not checked, except that a token module
 * has none but type imports.
 *
 * `layerViolations(root)` reads any tree laid out as the project is: the project itself must have
 * none, and the planted tree under test/fixtures/layers must show each kind it is meant to refuse.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/cli.js';

const LAYERS = ['kernel', 'toolkit', 'plugins', 'backends', 'profiles', 'app', 'testing'] as const;
type Layer = (typeof LAYERS)[number];

/** What each layer may import besides itself. */
const BELOW: Record<Layer, readonly Layer[]> = {
  kernel: [],
  toolkit: ['kernel'],
  plugins: ['kernel', 'toolkit'],
  backends: ['kernel', 'toolkit'],
  profiles: ['kernel', 'toolkit', 'plugins', 'backends'],
  app: ['kernel', 'toolkit', 'plugins', 'backends', 'profiles'],
  // The contract suites (`notekernel/testing`) see a backend only through the kernel's contracts;
  // from the toolkit they take shared models, such as the search syntax's parser.
  testing: ['kernel', 'toolkit'],
};

/** The one value a token module may import: the function that makes tokens. */
const TOKEN_MAKER = 'kernel/container.ts';

interface Import {
  /** As written, e.g. `../links/service.js` or `node:fs`. */
  spec: string;
  /** Root-relative `/`-separated path of the `.ts` source, for a relative import. */
  target?: string;
  /** Nothing but types: `import type`, `export type … from`, or every named binding marked `type`. */
  typeOnly: boolean;
  /** The value names it binds (named imports), to tell `import { token }` from the rest. */
  names: string[];
}

interface Source {
  rel: string;
  file: ts.SourceFile;
  imports: Import[];
}

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(full);
    return /\.(ts|cts|mts)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

const toPosix = (p: string) => p.split(path.sep).join('/');

function readSource(root: string, absolute: string): Source {
  const rel = toPosix(path.relative(root, absolute));
  const file = ts.createSourceFile(
    absolute,
    fs.readFileSync(absolute, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
    ts.ScriptKind.TS,
  );
  const imports: Import[] = [];
  const add = (spec: string, typeOnly: boolean, names: string[] = []) => {
    const target = spec.startsWith('.')
      ? toPosix(path.relative(root, path.resolve(path.dirname(absolute), spec))).replace(/\.(c|m)?js$/, '.$1ts')
      : undefined;
    imports.push({ spec, ...(target !== undefined ? { target } : {}), typeOnly, names });
  };
  const visit = (node: ts.Node): void => {
    if (
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const { typeOnly, names } = ts.isImportDeclaration(node) ? importBindings(node) : exportBindings(node);
      add(node.moduleSpecifier.text, typeOnly, names);
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments;
      if (arg && ts.isStringLiteral(arg)) add(arg.text, false);
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      add(node.argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return { rel, file, imports };
}

function importBindings(node: ts.ImportDeclaration): { typeOnly: boolean; names: string[] } {
  const clause = node.importClause;
  if (!clause) return { typeOnly: false, names: [] }; // `import './x.js'` runs the module
  if (clause.isTypeOnly) return { typeOnly: true, names: [] };
  const bindings = clause.namedBindings;
  const named =
    bindings && ts.isNamedImports(bindings)
      ? bindings.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text)
      : [];
  const whole = clause.name !== undefined || (bindings !== undefined && ts.isNamespaceImport(bindings));
  return { typeOnly: !whole && named.length === 0, names: whole ? ['*'] : named };
}

function exportBindings(node: ts.ExportDeclaration): { typeOnly: boolean; names: string[] } {
  if (node.isTypeOnly) return { typeOnly: true, names: [] };
  const clause = node.exportClause;
  if (!clause || !ts.isNamedExports(clause)) return { typeOnly: false, names: ['*'] };
  const named = clause.elements.filter((e) => !e.isTypeOnly).map((e) => e.name.text);
  return { typeOnly: named.length === 0, names: named };
}

/** `export const NAME = token<T>('name')`, and nothing else, in one statement. */
function isTokenLine(statement: ts.Statement): boolean {
  if (!ts.isVariableStatement(statement)) return false;
  const exported = statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) ?? false;
  const isConst = (statement.declarationList.flags & ts.NodeFlags.Const) !== 0;
  const [declaration, ...more] = statement.declarationList.declarations;
  const call = declaration?.initializer;
  return (
    exported &&
    isConst &&
    more.length === 0 &&
    call !== undefined &&
    ts.isCallExpression(call) &&
    ts.isIdentifier(call.expression) &&
    call.expression.text === 'token' &&
    call.typeArguments?.length === 1 &&
    call.arguments.length === 1 &&
    ts.isStringLiteralLike(call.arguments[0] as ts.Expression)
  );
}

/** What keeps `source` from being a token module: each value it holds or imports, by name. */
function tokenModuleFaults(source: Source): string[] {
  const faults: string[] = [];
  for (const imp of source.imports) {
    if (imp.spec.startsWith('node:')) faults.push(`imports ${imp.spec}`);
    else if (!imp.typeOnly && !(imp.target === TOKEN_MAKER && imp.names.every((n) => n === 'token'))) {
      faults.push(`imports values from ${imp.target ?? imp.spec}`);
    }
  }
  for (const statement of source.file.statements) {
    if (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) continue; // judged above
    if (ts.isInterfaceDeclaration(statement) || ts.isTypeAliasDeclaration(statement) || isTokenLine(statement))
      continue;
    faults.push(`holds ${describeStatement(statement)}`);
  }
  return faults;
}

function describeStatement(statement: ts.Statement): string {
  const named = (kind: string, name: ts.Node | undefined) =>
    name && ts.isIdentifier(name) ? `${kind} ${name.text}` : kind;
  if (ts.isFunctionDeclaration(statement)) return named('function', statement.name);
  if (ts.isClassDeclaration(statement)) return named('class', statement.name);
  if (ts.isEnumDeclaration(statement)) return named('enum', statement.name);
  if (ts.isVariableStatement(statement)) {
    const names = statement.declarationList.declarations.map((d) => d.name.getText());
    return `const ${names.join(', ')} (not a token)`;
  }
  return `a ${ts.SyntaxKind[statement.kind]}`;
}

/** Plugin folders that import each other, directly or round a longer loop: `plugins/a ↔ plugins/b`. */
function pluginLoops(edges: Map<string, Set<string>>): string[] {
  const reach = (from: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [...(edges.get(from) ?? [])];
    while (stack.length) {
      const next = stack.pop() as string;
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(...(edges.get(next) ?? []));
    }
    return seen;
  };
  const reached = new Map([...edges.keys()].map((unit) => [unit, reach(unit)]));
  const loops = new Set<string>();
  for (const [unit, seen] of reached) {
    if (!seen.has(unit)) continue;
    const members = [...seen].filter((other) => reached.get(other)?.has(unit)).sort();
    loops.add(`${members.map((m) => `plugins/${m}`).join(' ↔ ')}: plugin folders import each other`);
  }
  return [...loops];
}

/** Every import in the tree at `root` that breaks the layers, one line each, naming the files. */
function layerViolations(root: string): string[] {
  const found: string[] = [];
  const sources = new Map<string, Source>();
  for (const layer of LAYERS) {
    for (const absolute of sourceFiles(path.join(root, layer))) {
      const source = readSource(root, absolute);
      sources.set(source.rel, source);
    }
  }
  const publicFaces = new Map<string, string[]>(); // another plugin's module → who imports it
  const pluginEdges = new Map<string, Set<string>>();
  for (const source of sources.values()) {
    const [layer, unit] = source.rel.split('/') as [Layer, string];
    for (const imp of source.imports) {
      if (imp.target === undefined) continue;
      const [targetLayer, targetUnit] = imp.target.split('/') as [string, string];
      const edge = `${source.rel} → ${imp.target}`;
      if (targetLayer !== layer) {
        if ((LAYERS as readonly string[]).includes(targetLayer) && !BELOW[layer].includes(targetLayer as Layer)) {
          found.push(`${edge}: ${layer} may not import ${targetLayer}`);
        }
        continue;
      }
      if (targetUnit === unit) continue;
      if (layer === 'backends') found.push(`${edge}: a backend imports another backend`);
      if (layer !== 'plugins') continue;
      if (!pluginEdges.has(unit)) pluginEdges.set(unit, new Set());
      pluginEdges.get(unit)?.add(targetUnit);
      const target = sources.get(imp.target);
      const definesToken = target?.file.statements.some(isTokenLine) ?? false;
      if (!imp.typeOnly && !definesToken)
        found.push(`${edge}: a plugin imports values from another plugin's code, not its token module`);
      publicFaces.set(imp.target, [...(publicFaces.get(imp.target) ?? []), source.rel]);
    }
  }
  for (const [rel, importers] of publicFaces) {
    const target = sources.get(rel);
    const faults = target ? tokenModuleFaults(target) : ['does not exist'];
    for (const fault of faults)
      found.push(`${rel}: imported by ${[...new Set(importers)].sort().join(', ')}, but it ${fault}`);
  }
  found.push(...pluginLoops(pluginEdges));
  return found;
}

describe('layers', () => {
  it('every import points down or sideways as decisions 015 and 041 draw them', () => {
    expect(layerViolations(REPO_ROOT)).toEqual([]);
  });

  it('the check refuses each planted fault of test/fixtures/layers, and only those', () => {
    const fixture = path.join(REPO_ROOT, 'test', 'fixtures', 'layers');
    expect(layerViolations(fixture).sort()).toEqual(
      [
        'kernel/boot.ts → toolkit/helper.ts: kernel may not import toolkit',
        'backends/store/index.ts → plugins/c/service.ts: backends may not import plugins',
        'backends/store/index.ts → backends/other/index.ts: a backend imports another backend',
        "plugins/a/index.ts → plugins/b/parse.ts: a plugin imports values from another plugin's code, not its token module",
        'plugins/b/parse.ts: imported by plugins/a/index.ts, but it holds function parseB',
        'plugins/b/service.ts: imported by plugins/a/index.ts, but it holds function readB',
        'plugins/b/service.ts: imported by plugins/a/index.ts, but it imports node:fs',
        'plugins/b/service.ts: imported by plugins/a/index.ts, but it holds const B_DEFAULTS (not a token)',
        'plugins/c/internal.ts: imported by plugins/a/index.ts, but it holds class Cache',
        'plugins/a ↔ plugins/b: plugin folders import each other',
      ].sort(),
    );
  });
});
