/** A minimal protobuf wire-format reader, enough for aapt2's XmlNode and ResourceTable messages. */
export type ProtoValue = number | Buffer;

export interface ProtoField {
  field: number;
  value: ProtoValue;
}

export class ProtobufError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtobufError';
  }
}

function readVarint(bytes: Buffer, at: number): [number, number] {
  let value = 0;
  let multiplier = 1;
  for (let i = 0; i < 10; i += 1) {
    if (at >= bytes.length) throw new ProtobufError('truncated varint');
    const byte = bytes[at++] as number;
    // Doubles keep 53 bits exactly; enough for ids, sizes and int32 values.
    value += (byte & 0x7f) * multiplier;
    multiplier *= 128;
    if (!(byte & 0x80)) return [value, at];
  }
  throw new ProtobufError('varint too long');
}

/** The fields of one message, in order; nested messages and strings stay as Buffers. */
export function readMessage(bytes: Buffer): ProtoField[] {
  const fields: ProtoField[] = [];
  let at = 0;
  while (at < bytes.length) {
    const [key, afterKey] = readVarint(bytes, at);
    const field = Math.floor(key / 8);
    const wireType = key % 8;
    at = afterKey;
    if (wireType === 0) {
      const [value, next] = readVarint(bytes, at);
      fields.push({ field, value });
      at = next;
    } else if (wireType === 2) {
      const [length, next] = readVarint(bytes, at);
      if (next + length > bytes.length) throw new ProtobufError('length past end');
      fields.push({ field, value: bytes.subarray(next, next + length) });
      at = next + length;
    } else if (wireType === 5) {
      if (at + 4 > bytes.length) throw new ProtobufError('truncated fixed32');
      fields.push({ field, value: bytes.readUInt32LE(at) });
      at += 4;
    } else if (wireType === 1) {
      if (at + 8 > bytes.length) throw new ProtobufError('truncated fixed64');
      fields.push({ field, value: bytes.subarray(at, at + 8) });
      at += 8;
    } else {
      throw new ProtobufError(`unsupported wire type ${wireType}`);
    }
  }
  return fields;
}

export function bytesField(fields: ProtoField[], field: number): Buffer | null {
  const found = fields.find((item) => item.field === field)?.value;
  return Buffer.isBuffer(found) ? found : null;
}

export function stringField(fields: ProtoField[], field: number): string | null {
  return bytesField(fields, field)?.toString('utf8') ?? null;
}

export function numberField(fields: ProtoField[], field: number): number | null {
  const found = fields.find((item) => item.field === field)?.value;
  return typeof found === 'number' ? found : null;
}

export function messagesField(fields: ProtoField[], field: number): ProtoField[][] {
  return fields.flatMap((item) =>
    item.field === field && Buffer.isBuffer(item.value) ? [readMessage(item.value)] : [],
  );
}
