import { CSMAGIC } from './code-signature.ts';

/**
 * Code requirements in Apple's compiled form (requirement.h): a blob `0xfade0c00` of kind 1 holding an
 * expression of 32-bit big-endian opcodes; strings and data are a length and bytes padded to 4. The signer
 * builds the designated requirement Xcode writes; the verifier prints any requirement it meets.
 */
const OP = {
  false: 0,
  true: 1,
  ident: 2,
  appleAnchor: 3,
  anchorHash: 4,
  infoKeyValue: 5,
  and: 6,
  or: 7,
  cdHash: 8,
  not: 9,
  infoKeyField: 10,
  certField: 11,
  trustedCert: 12,
  trustedCerts: 13,
  certGeneric: 14,
  appleGenericAnchor: 15,
  entitlementField: 16,
  certPolicy: 17,
  namedAnchor: 18,
  namedCode: 19,
  platform: 20,
  notarized: 21,
  certFieldDate: 22,
  legacyDevId: 23,
} as const;
const OP_FLAG_MASK = 0xff000000;
const MATCH = {
  exists: 0,
  equal: 1,
  contains: 2,
  beginsWith: 3,
  endsWith: 4,
  lessThan: 5,
  greaterThan: 6,
  lessEqual: 7,
  greaterEqual: 8,
  absent: 14,
} as const;
/** Apple's marker OID for a WWDR-issued (iPhone developer/distribution) leaf's intermediate: 1.2.840.113635.100.6.2.1. */
export const WWDR_INTERMEDIATE_OID = '1.2.840.113635.100.6.2.1';

export class RequirementError extends Error {
  constructor(detail: string) {
    super(`requirement: ${detail}`);
    this.name = 'RequirementError';
  }
}

class Reader {
  at = 0;
  constructor(private readonly bytes: Buffer) {}
  u32(): number {
    if (this.at + 4 > this.bytes.length) throw new RequirementError('cut short');
    const value = this.bytes.readUInt32BE(this.at);
    this.at += 4;
    return value;
  }
  data(): Buffer {
    const length = this.u32();
    if (this.at + length > this.bytes.length) throw new RequirementError('data runs past the end');
    const value = this.bytes.subarray(this.at, this.at + length);
    this.at += Math.ceil(length / 4) * 4;
    return value;
  }
}

function oidText(der: Buffer): string {
  const parts: number[] = [];
  let value = 0;
  for (const byte of der) {
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) {
      if (parts.length === 0) parts.push(value < 80 ? Math.floor(value / 40) : 2, value < 80 ? value % 40 : value - 80);
      else parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

function oidDer(text: string): Buffer {
  const [first = 0, second = 0, ...rest] = text.split('.').map(Number);
  const out: number[] = [first * 40 + second];
  for (const part of rest) {
    const chunk = [part & 0x7f];
    for (let value = Math.floor(part / 128); value > 0; value = Math.floor(value / 128))
      chunk.unshift((value & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return Buffer.from(out);
}

const quote = (value: Buffer) => JSON.stringify(value.toString('utf8'));
const slotName = (slot: number) => (slot === 0 ? 'leaf' : slot === -1 ? 'root' : String(slot));

function matchText(reader: Reader): string {
  const op = reader.u32();
  switch (op) {
    case MATCH.exists:
      return 'exists';
    case MATCH.absent:
      return 'absent';
    case MATCH.equal:
      return `= ${quote(reader.data())}`;
    case MATCH.contains:
      return `~ ${quote(reader.data())}`;
    case MATCH.beginsWith:
      return `= ${JSON.stringify(`${reader.data().toString('utf8')}*`)}`;
    case MATCH.endsWith:
      return `= ${JSON.stringify(`*${reader.data().toString('utf8')}`)}`;
    case MATCH.lessThan:
      return `< ${quote(reader.data())}`;
    case MATCH.greaterThan:
      return `> ${quote(reader.data())}`;
    case MATCH.lessEqual:
      return `<= ${quote(reader.data())}`;
    case MATCH.greaterEqual:
      return `>= ${quote(reader.data())}`;
    default:
      throw new RequirementError(`match operation ${op}`);
  }
}

function expression(reader: Reader, depth: number): { text: string; op: number } {
  if (depth > 64) throw new RequirementError('nested too deep');
  const op = reader.u32() & ~OP_FLAG_MASK;
  const operand = (parentOp: number) => {
    const inner = expression(reader, depth + 1);
    return inner.op === OP.or && parentOp === OP.and ? `(${inner.text})` : inner.text;
  };
  switch (op) {
    case OP.false:
      return { text: 'never', op };
    case OP.true:
      return { text: 'always', op };
    case OP.ident:
      return { text: `identifier ${quote(reader.data())}`, op };
    case OP.appleAnchor:
      return { text: 'anchor apple', op };
    case OP.appleGenericAnchor:
      return { text: 'anchor apple generic', op };
    case OP.anchorHash: {
      const slot = reader.u32() | 0;
      return { text: `certificate ${slotName(slot)} = H"${reader.data().toString('hex')}"`, op };
    }
    case OP.infoKeyValue:
      return { text: `info[${reader.data().toString('utf8')}] = ${quote(reader.data())}`, op };
    case OP.and:
    case OP.or: {
      const left = operand(op);
      const right = operand(op);
      return { text: `${left} ${op === OP.and ? 'and' : 'or'} ${right}`, op };
    }
    case OP.not:
      return { text: `! ${operand(OP.and)}`, op };
    case OP.cdHash:
      return { text: `cdhash H"${reader.data().toString('hex')}"`, op };
    case OP.infoKeyField:
      return { text: `info[${reader.data().toString('utf8')}] ${matchText(reader)}`, op };
    case OP.entitlementField:
      return { text: `entitlement[${quote(reader.data())}] ${matchText(reader)}`, op };
    case OP.certField: {
      const slot = reader.u32() | 0;
      return { text: `certificate ${slotName(slot)}[${reader.data().toString('utf8')}] ${matchText(reader)}`, op };
    }
    case OP.certGeneric:
    case OP.certPolicy:
    case OP.certFieldDate: {
      const slot = reader.u32() | 0;
      const kind = op === OP.certGeneric ? 'field' : op === OP.certPolicy ? 'policy' : 'timestamp';
      return { text: `certificate ${slotName(slot)}[${kind}.${oidText(reader.data())}] ${matchText(reader)}`, op };
    }
    case OP.trustedCert:
      return { text: `certificate ${slotName(reader.u32() | 0)} trusted`, op };
    case OP.trustedCerts:
      return { text: 'anchor trusted', op };
    case OP.namedAnchor:
      return { text: `anchor apple ${quote(reader.data())}`, op };
    case OP.namedCode:
      return { text: `(${quote(reader.data())})`, op };
    case OP.platform:
      return { text: `platform = ${reader.u32()}`, op };
    case OP.notarized:
      return { text: 'notarized', op };
    case OP.legacyDevId:
      return { text: 'legacy', op };
    default:
      throw new RequirementError(`operation ${op}`);
  }
}

/** The text of a compiled requirement blob (`0xfade0c00`), in the csreq language. */
export function decodeRequirement(blob: Buffer): string {
  if (blob.length < 12 || blob.readUInt32BE(0) !== CSMAGIC.requirement)
    throw new RequirementError('not a requirement blob');
  if (blob.readUInt32BE(8) !== 1) throw new RequirementError('not an expression requirement');
  const reader = new Reader(blob.subarray(12, blob.readUInt32BE(4)));
  return expression(reader, 0).text;
}

class Writer {
  private readonly parts: Buffer[] = [];
  u32(value: number): this {
    const part = Buffer.alloc(4);
    part.writeUInt32BE(value >>> 0, 0);
    this.parts.push(part);
    return this;
  }
  data(value: Buffer | string): this {
    const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : value;
    this.u32(bytes.length);
    this.parts.push(bytes, Buffer.alloc((4 - (bytes.length % 4)) % 4));
    return this;
  }
  bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function wrap(magic: number, payload: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(magic, 0);
  head.writeUInt32BE(payload.length + 8, 4);
  return Buffer.concat([head, payload]);
}

/**
 * The designated requirement Xcode writes for an App Store/ad-hoc/development signature:
 * `identifier "<id>" and anchor apple generic and certificate leaf[subject.CN] = "<CN>" and
 * certificate 1[field.1.2.840.113635.100.6.2.1] exists`, as a requirement blob.
 */
export function designatedRequirement(identifier: string, leafCommonName: string): Buffer {
  const expression = new Writer()
    .u32(1) // kind: expression
    .u32(OP.and)
    .u32(OP.ident)
    .data(identifier)
    .u32(OP.and)
    .u32(OP.appleGenericAnchor)
    .u32(OP.and)
    .u32(OP.certField)
    .u32(0)
    .data('subject.CN')
    .u32(MATCH.equal)
    .data(leafCommonName)
    .u32(OP.certGeneric)
    .u32(1)
    .data(oidDer(WWDR_INTERMEDIATE_OID))
    .u32(MATCH.exists)
    .bytes();
  return wrap(CSMAGIC.requirement, expression);
}

/** A requirement set blob (`0xfade0c01`) of (type, requirement blob) pairs; type 3 is the designated requirement. */
export function requirementSet(requirements: Array<{ type: number; blob: Buffer }>): Buffer {
  const index = new Writer().u32(requirements.length);
  let offset = 8 + 4 + requirements.length * 8;
  for (const { type, blob } of requirements) {
    index.u32(type).u32(offset);
    offset += blob.length;
  }
  return wrap(CSMAGIC.requirements, Buffer.concat([index.bytes(), ...requirements.map((r) => r.blob)]));
}
