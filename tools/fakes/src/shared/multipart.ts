/** A small multipart/form-data reader: enough for upload endpoints of the fakes (whole body in memory). */
export interface MultipartFile {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
  /** Extra Content-Disposition parameters, e.g. WeCom's `filelength`. */
  params: Record<string, string>;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: MultipartFile[];
}

export function boundaryOf(contentType: string | undefined): string | null {
  const match = /boundary=(?:"([^"]+)"|([^;]+))/i.exec(contentType ?? '');
  return match ? (match[1] ?? match[2] ?? '').trim() : null;
}

export function parseMultipart(body: Buffer, boundary: string): MultipartBody {
  const result: MultipartBody = { fields: {}, files: [] };
  const delimiter = Buffer.from(`--${boundary}`);
  let start = body.indexOf(delimiter);
  while (start !== -1) {
    const partStart = start + delimiter.length;
    if (body.subarray(partStart, partStart + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, partStart);
    if (next === -1) break;
    // Each part is CRLF, headers, CRLF CRLF, data, CRLF before the next delimiter.
    const part = body.subarray(partStart + 2, next - 2);
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd !== -1) addPart(result, part.subarray(0, headerEnd).toString('utf8'), part.subarray(headerEnd + 4));
    start = next;
  }
  return result;
}

function addPart(result: MultipartBody, headerText: string, data: Buffer): void {
  const headers = new Map<string, string>();
  for (const line of headerText.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const params: Record<string, string> = {};
  for (const m of (headers.get('content-disposition') ?? '').matchAll(/;\s*([\w*-]+)=(?:"([^"]*)"|([^;]*))/g)) {
    params[(m[1] ?? '').toLowerCase()] = m[2] ?? m[3] ?? '';
  }
  const field = params.name ?? '';
  if (params.filename !== undefined) {
    const { name: _n, filename, ...rest } = params;
    result.files.push({
      field,
      filename,
      contentType: headers.get('content-type') ?? 'application/octet-stream',
      data,
      params: rest,
    });
  } else {
    result.fields[field] = data.toString('utf8');
  }
}

/** Builds a multipart body (used by tests and the SDK-free helpers). */
export function buildMultipart(
  parts: Array<{ name: string; value: string | Buffer; filename?: string; contentType?: string; extra?: string }>,
): { body: Buffer; contentType: string } {
  const boundary = `----fake${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const file = p.filename !== undefined ? `; filename="${p.filename}"${p.extra ?? ''}` : '';
    const type = p.filename !== undefined ? `\r\nContent-Type: ${p.contentType ?? 'application/octet-stream'}` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"${file}${type}\r\n\r\n`));
    chunks.push(typeof p.value === 'string' ? Buffer.from(p.value) : p.value, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
