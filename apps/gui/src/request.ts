import { CATEGORIES, type Category } from '@crucibleforge/core';
import { HttpError } from './http';

/** What the new-run page sends for an estimate or a start. */
export interface RunRequest {
  profile: string;
  models: string[];
  categories: Category[] | null;
  seed: number;
  /** Measure each model's speed before its cases (default true). */
  speed: boolean;
  /** The upper-bound cost (USD) the user accepted for a priced run; checked by the server against its own estimate. */
  accept_cost_usd: number | null;
  /** Stop the run before its spending would pass this (USD); null = no budget. */
  budget_usd: number | null;
}

function usdField(b: Record<string, unknown>, name: string): number | null {
  const value = b[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1e6) {
    throw new HttpError(400, `field ${name}: an amount in USD from 0 to 1000000, or null`);
  }
  return value;
}

const LABEL = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;
const PROFILE = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Validates a run request body, naming the field that is wrong. */
export function parseRunRequest(body: unknown): RunRequest {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new HttpError(400, 'the body must be a JSON object');
  const b = body as Record<string, unknown>;
  const known = ['profile', 'models', 'categories', 'seed', 'speed', 'accept_cost_usd', 'budget_usd'];
  const extra = Object.keys(b).filter((k) => !known.includes(k));
  if (extra.length > 0) throw new HttpError(400, `unknown field ${extra.map((k) => JSON.stringify(k)).join(', ')} (fields: ${known.join(', ')})`);
  if (typeof b.profile !== 'string' || !PROFILE.test(b.profile)) throw new HttpError(400, 'field profile: a profile name is required (letters, digits, . _ -)');
  if (!Array.isArray(b.models) || b.models.length === 0) throw new HttpError(400, 'field models: pick at least one model');
  const models = b.models.map((m, i) => {
    if (typeof m !== 'string' || !LABEL.test(m)) throw new HttpError(400, `field models[${i}]: not a model label`);
    return m;
  });
  let categories: Category[] | null = null;
  if (b.categories !== undefined && b.categories !== null) {
    if (!Array.isArray(b.categories)) throw new HttpError(400, 'field categories: a list of categories, or null for all');
    categories = b.categories.map((c, i) => {
      if (typeof c !== 'string' || !(CATEGORIES as readonly string[]).includes(c)) {
        throw new HttpError(400, `field categories[${i}]: unknown category ${JSON.stringify(c)} (known: ${CATEGORIES.join(', ')})`);
      }
      return c as Category;
    });
    if (categories.length === 0) throw new HttpError(400, 'field categories: pick at least one category (or send null for all)');
  }
  let seed = 1;
  if (b.seed !== undefined) {
    if (typeof b.seed !== 'number' || !Number.isInteger(b.seed) || b.seed < 0 || b.seed > 2 ** 31 - 1) {
      throw new HttpError(400, 'field seed: a whole number from 0 to 2147483647');
    }
    seed = b.seed;
  }
  if (b.speed !== undefined && typeof b.speed !== 'boolean') throw new HttpError(400, 'field speed: true or false');
  return {
    profile: b.profile,
    models: [...new Set(models)],
    categories,
    seed,
    speed: b.speed !== false,
    accept_cost_usd: usdField(b, 'accept_cost_usd'),
    budget_usd: usdField(b, 'budget_usd'),
  };
}
