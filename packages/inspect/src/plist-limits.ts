import type { PlistValue } from 'plist';

/**
 * What any property list we read may cost (binary and XML alike; docs/parsers.md). Checked while reading,
 * before the work grows: a document past a limit is refused, never read in part.
 */
export interface PlistLimits {
  /** Nesting of arrays and dictionaries. */
  maxDepth: number;
  /**
   * Values produced, keys included, a value reached twice through a shared reference counted twice. A binary
   * plist is in any case held to one value per byte of the file (what it holds without shared containers).
   */
  maxValues: number;
  /** One string or data value as stored: its bytes in a binary plist, its characters between the tags in XML. */
  maxStringBytes: number;
  /** Elements of an XML document that only xmldom can read (CDATA, attributes, `\r`...), counted before it builds a tree. */
  maxDomElements: number;
}

export const PLIST_LIMITS: Readonly<PlistLimits> = {
  maxDepth: 128,
  maxValues: 4_000_000,
  maxStringBytes: 16 * 1024 * 1024,
  maxDomElements: 50_000,
};

/** A property list past one of the limits above (never returned as a partial value). */
export class PlistLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PlistLimitError';
  }
}

/** Counts produced values against `maxValues`. */
export class ValueBudget {
  private left: number;

  constructor(max: number) {
    this.left = max;
  }

  take(): void {
    if (--this.left < 0) throw new PlistLimitError('too many values');
  }
}

/** Sets a dictionary entry; `__proto__` becomes an own key instead of replacing the object's prototype. */
export function setEntry(dict: { [key: string]: PlistValue }, key: string, value: PlistValue): void {
  if (key === '__proto__')
    Object.defineProperty(dict, key, { value, enumerable: true, writable: true, configurable: true });
  else dict[key] = value;
}
