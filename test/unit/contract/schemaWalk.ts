import type { SchemaObject as JsonSchema } from 'ajv';

/** One node of a compiled schema, with its place: "Schema.field.[].field", "{}" for a map's values. */
export interface SchemaNode {
  readonly path: string;
  readonly schema: JsonSchema;
}

function types(schema: JsonSchema): string[] {
  const type: unknown = schema['type'];
  if (Array.isArray(type)) return type.map(String);
  return typeof type === 'string' ? [type] : [];
}

/** True when the node accepts JSON values of `type`. */
export function accepts(schema: JsonSchema, type: string): boolean {
  return types(schema).includes(type);
}

/**
 * Every node of `schema` that describes a value of the body: properties, array items and map values
 * (through boundedArray()'s and boundedMap()'s `then`), depth first. The `if` size guards describe no value and
 * are skipped.
 */
export function walkSchema(root: string, schema: JsonSchema): SchemaNode[] {
  const nodes: SchemaNode[] = [];
  const visit = (path: string, node: JsonSchema): void => {
    nodes.push({ path, schema: node });
    const properties = node['properties'] as Record<string, JsonSchema> | undefined;
    for (const [name, child] of Object.entries(properties ?? {})) visit(`${path}.${name}`, child);
    const then = node['then'] as JsonSchema | undefined;
    const items = (node['items'] ?? then?.['items']) as JsonSchema | undefined;
    if (items) visit(`${path}.[]`, items);
    const values = (node['additionalProperties'] ?? then?.['additionalProperties']) as JsonSchema | boolean | undefined;
    if (typeof values === 'object') visit(`${path}.{}`, values);
    const keys = (node['propertyNames'] ?? then?.['propertyNames']) as JsonSchema | undefined;
    if (keys) visit(`${path}.{key}`, keys);
  };
  visit(root, schema);
  return nodes;
}

/** A pattern that can only match strings of bounded length: anchored, with no `*`, `+` or open `{n,}`. */
export function isBoundedPattern(pattern: unknown): boolean {
  return (
    typeof pattern === 'string' && pattern.startsWith('^') && pattern.endsWith('$') && !/[*+]|\{\d+,\}/.test(pattern)
  );
}
