/**
 * Resource templates: a `uri` such as `flint-note://note/{type}/{filename}` (RFC 6570 level 1),
 * each `{name}` one non-empty, percent-decoded path segment. A fixed URI wins over any template;
 * among templates the first that matches, in the plugins' order, answers.
 */
import type { ResourceDefinition } from './plugin.js';

function matchTemplate(template: string, uri: string): Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template.split(/(\{[a-zA-Z0-9_]+\})/).map((part) => {
    const name = /^\{([a-zA-Z0-9_]+)\}$/.exec(part)?.[1];
    if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    names.push(name);
    return '([^/]+)';
  });
  const match = new RegExp(`^${pattern.join('')}$`).exec(uri);
  if (!match) return undefined;
  const params: Record<string, string> = {};
  try {
    names.forEach((name, k) => (params[name] = decodeURIComponent(match[k + 1] ?? '')));
  } catch {
    return undefined; // a malformed %-escape matches nothing
  }
  return params;
}

export function findResource(
  resources: readonly ResourceDefinition[],
  uri: string,
): { resource: ResourceDefinition; params: Record<string, string> } | undefined {
  const fixed = resources.find((r) => !r.template && r.uri === uri);
  if (fixed) return { resource: fixed, params: {} };
  for (const resource of resources) {
    if (!resource.template) continue;
    const params = matchTemplate(resource.uri, uri);
    if (params) return { resource, params };
  }
  return undefined;
}
