/** A JSON object (a leaf module: the blob code and the formats' helpers both test values with it). */
export type Obj = Record<string, unknown>;

export function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
