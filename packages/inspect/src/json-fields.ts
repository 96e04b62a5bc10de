/** Reading fields of parsed JSON (module.json, HAP profiles) without trusting their types. */
export type Json = Record<string, unknown>;

/** The object under `key`, or an empty one when it is missing or not an object. */
export function objectAt(value: unknown, key: string): Json {
  const child = value && typeof value === 'object' ? (value as Json)[key] : undefined;
  return child && typeof child === 'object' && !Array.isArray(child) ? (child as Json) : {};
}

/** A non-empty string (a number as its text), else null. */
export function stringAt(value: Json, key: string): string | null {
  const field = value[key];
  if (typeof field === 'number' && Number.isFinite(field)) return String(field);
  return typeof field === 'string' && field !== '' ? field : null;
}

export function integerAt(value: Json, key: string): number | null {
  const field = value[key];
  return typeof field === 'number' && Number.isSafeInteger(field) ? field : null;
}

/** The strings of an array under `key` (other items dropped). */
export function stringsAt(value: Json, key: string): string[] {
  const field = value[key];
  return Array.isArray(field) ? field.filter((item): item is string => typeof item === 'string') : [];
}
