/**
 * A small JSON Schema check for reference tool calls (the subset tool definitions use: type, properties,
 * required, enum, items, additionalProperties: false, minimum/maximum). Returns the first problem or null.
 */
export function schemaProblem(value: unknown, schema: unknown, path = 'arguments'): string | null {
  if (schema === null || typeof schema !== 'object') return null;
  const s = schema as Record<string, unknown>;
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
  if (types.length > 0 && !types.some((t) => isType(value, t))) return `${path}: expected ${types.join(' | ')}, got ${JSON.stringify(value)?.slice(0, 40)}`;
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    return `${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`;
  }
  if (typeof value === 'number') {
    if (typeof s.minimum === 'number' && value < s.minimum) return `${path}: below minimum ${s.minimum}`;
    if (typeof s.maximum === 'number' && value > s.maximum) return `${path}: above maximum ${s.maximum}`;
  }
  if (Array.isArray(value) && s.items) {
    for (let i = 0; i < value.length; i++) {
      const p = schemaProblem(value[i], s.items, `${path}[${i}]`);
      if (p) return p;
    }
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    const props = (s.properties ?? {}) as Record<string, unknown>;
    for (const req of (s.required ?? []) as string[]) if (!(req in obj)) return `${path}.${req}: required`;
    for (const [k, v] of Object.entries(obj)) {
      if (k in props) {
        const p = schemaProblem(v, props[k], `${path}.${k}`);
        if (p) return p;
      } else if (s.additionalProperties === false) {
        return `${path}.${k}: not in the tool's parameters`;
      }
    }
  }
  return null;
}

function isType(value: unknown, t: string): boolean {
  switch (t) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number';
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'null':
      return value === null;
    default:
      return true;
  }
}
