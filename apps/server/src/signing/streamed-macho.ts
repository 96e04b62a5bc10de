import { hash } from 'node:crypto';
import { createDigester, type FileDigest } from './app-files.ts';
import { CS_HASHTYPE, parseEmbeddedSignature, type EmbeddedSignature } from './code-signature.ts';
import { MachOError, parseThinHead, type MachOSlice } from './macho.ts';
import { layoutOf, sliceSigner, type MachOSigningInput } from './macho-signer.ts';

/**
 * A large thin executable signed as it streams by, never held whole (issue 18/23: re-signing a 50+ MiB Mach-O
 * cost its size in memory twice, when signed and when verified). One pass keeps its first bytes (the header and
 * load commands, all that signing changes), its embedded signature, and the SHA-1 and SHA-256 of every 4 KiB page
 * up to where the new signature goes; the signer hashes the patched header pages again and uses the rest as they
 * are. Writing streams the source a second time: patched head, the same code, the new signature.
 */
export interface StreamedExecutable {
  readonly streamed: true;
  /** Size of the executable as read. */
  readonly size: number;
  /** Its first bytes: header and load commands. */
  readonly head: Buffer;
  readonly info: MachOSlice;
  /** The embedded signature (what LC_CODE_SIGNATURE points at); null when unsigned. */
  readonly signature: EmbeddedSignature | null;
  /** Where the hashed code ends (the new signature's offset when re-signing, the present one when verifying). */
  readonly codeLimit: number;
  /** Hashes of each 4 KiB page of [0, codeLimit), zeros past the end of the file, concatenated by hash type. */
  readonly pages: { sha1: Buffer; sha256: Buffer };
  /** After signing: the head with the new sizes, and the signature written at codeLimit. */
  readonly signed: { head: Buffer; signature: Buffer } | null;
  /**
   * SHA-1 and SHA-256 of the whole file, for the seal of the bundle around it (a nested bundle's executable is a file
   * of its parent's): of the bytes read (asked of `readStreamed`), or once signed, of the signed bytes (`withSignedDigest`).
   * Null when not taken.
   */
  readonly digest: FileDigest | null;
}

/** Executables this large or larger are streamed; smaller ones are held (cheaper than a second inflate). */
export const STREAM_FROM = 8 * 1024 * 1024;
/** How much of the start is kept: the load commands must end within it. */
const HEAD = 64 * 1024;
const PAGE = 4096;
/** An embedded signature larger than this is not kept aside (the executable is held whole instead). */
const MAX_SIGNATURE = 16 * 1024 * 1024;

export const isStreamed = (file: unknown): file is StreamedExecutable =>
  typeof file === 'object' && file !== null && (file as StreamedExecutable).streamed === true;

/** Where the code to hash ends: the new signature's offset (re-signing) or the present one's (verifying). */
export type CodeLimitOf = (info: MachOSlice, size: number) => number;
export const toNewSignature: CodeLimitOf = (info, size) => layoutOf(size, info).signatureOffset;
export const toPresentSignature: CodeLimitOf = (info, size) => info.codeSignature?.dataOffset ?? size;

/**
 * Reads an executable of `size` bytes from `chunks` as a StreamedExecutable; null when it cannot be signed so (a FAT
 * file, load commands past the kept head, a huge signature): the caller then holds it whole.
 */
export async function readStreamed(
  chunks: AsyncIterable<Buffer>,
  size: number,
  codeLimitOf: CodeLimitOf,
  /** Also take the whole file's digests (a nested executable read to be verified: its parent's seal holds them). */
  digestWhole = false,
): Promise<StreamedExecutable | null> {
  const whole = digestWhole ? createDigester() : null;
  const head = Buffer.alloc(Math.min(HEAD, size));
  let info: MachOSlice | null = null;
  let codeLimit = 0;
  let signatureAt = 0;
  let signatureBytes: Buffer | null = null;
  let pages: { sha1: Buffer; sha256: Buffer } | null = null;
  const page = Buffer.alloc(PAGE);
  let inPage = 0;
  let pageIndex = 0;
  let at = 0;
  let usable = true;
  const hashPage = (bytes: Buffer) => {
    if (!pages) return;
    hash('sha1', bytes, 'buffer').copy(pages.sha1, pageIndex * 20);
    hash('sha256', bytes, 'buffer').copy(pages.sha256, pageIndex * 32);
    pageIndex += 1;
  };
  /** Feeds bytes [from, from + bytes.length) of the code (clipped to codeLimit) into the page hashes. */
  const feed = (bytes: Buffer) => {
    let offset = 0;
    while (offset < bytes.length) {
      if (inPage === 0 && bytes.length - offset >= PAGE) {
        hashPage(bytes.subarray(offset, offset + PAGE));
        offset += PAGE;
        continue;
      }
      const take = Math.min(PAGE - inPage, bytes.length - offset);
      bytes.copy(page, inPage, offset, offset + take);
      inPage += take;
      offset += take;
      if (inPage === PAGE) {
        hashPage(page);
        inPage = 0;
      }
    }
  };
  const start = () => {
    try {
      info = parseThinHead(head, size);
      codeLimit = codeLimitOf(info, size);
    } catch {
      // A FAT file, or one the signer will refuse: held whole, the signer says what is wrong with it.
      info = null;
    }
    const signature = info?.codeSignature;
    const commandsEnd = info ? info.headerSize + info.sizeOfCommands + 16 : Infinity;
    if (!info || commandsEnd > head.length || (signature?.dataSize ?? 0) > MAX_SIGNATURE || codeLimit < head.length) {
      usable = false;
      return;
    }
    if (signature) {
      signatureAt = signature.dataOffset;
      signatureBytes = Buffer.alloc(signature.dataSize);
      keepSignature(head, 0);
    }
    const count = Math.ceil(codeLimit / PAGE);
    pages = { sha1: Buffer.alloc(count * 20), sha256: Buffer.alloc(count * 32) };
  };
  /** Copies what of the embedded signature lies in `bytes` (which start at `from`). */
  const keepSignature = (bytes: Buffer, from: number) => {
    if (!signatureBytes) return;
    const target = signatureBytes as Buffer;
    const lo = Math.max(signatureAt, from);
    const hi = Math.min(signatureAt + target.length, from + bytes.length);
    if (lo < hi) bytes.copy(target, lo - signatureAt, lo - from, hi - from);
  };
  /** Feeds code bytes that start at `from`, clipped to the code limit. */
  const feedCode = (bytes: Buffer, from: number) => {
    if (from < codeLimit) feed(bytes.subarray(0, codeLimit - from));
  };
  if (size <= head.length) throw new Error('too small to stream');
  for await (const chunk of chunks) {
    // An executable that cannot be streamed is still read to its end (the entry's sizes are checked so).
    const from = at;
    at += chunk.length;
    if (!usable) continue;
    whole?.update(chunk);
    let rest = chunk;
    if (from < head.length) {
      const take = Math.min(chunk.length, head.length - from);
      chunk.copy(head, from, 0, take);
      rest = chunk.subarray(take);
      if (from + take < head.length) continue;
      start();
      if (!usable) continue;
      feedCode(head, 0);
    }
    const restFrom = at - rest.length;
    feedCode(rest, restFrom);
    keepSignature(rest, restFrom);
  }
  if (!usable || !info || !pages) return null;
  if (at !== size) throw new MachOError('truncated', 'executable shorter than its entry says');
  // Code past the end of the file (the new signature aligned after __LINKEDIT) hashes as zeros.
  if (codeLimit > at) feed(Buffer.alloc(codeLimit - at));
  if (inPage > 0) hashPage(page.subarray(0, inPage));
  return {
    streamed: true,
    size,
    head,
    info,
    signature: signatureBytes ? parseEmbeddedSignature(signatureBytes) : null,
    codeLimit,
    pages,
    signed: null,
    digest: whole ? whole.digest() : null,
  };
}

/** A page's hash by code directory hash type, from a streamed executable's page hashes. */
export function pageHashOf(exe: StreamedExecutable, hashType: number, page: number): Buffer {
  if (hashType === CS_HASHTYPE.sha1) return exe.pages.sha1.subarray(page * 20, page * 20 + 20);
  if (hashType === CS_HASHTYPE.sha256) return exe.pages.sha256.subarray(page * 32, page * 32 + 32);
  if (hashType === CS_HASHTYPE.sha256Truncated) return exe.pages.sha256.subarray(page * 32, page * 32 + 20);
  throw new MachOError('badLoadCommand', `hash type ${hashType} is not kept for a streamed executable`);
}

/**
 * Signs a streamed executable: the header pages are hashed again once patched, every other page keeps the hash
 * taken as it streamed by.
 */
export function signStreamed(exe: StreamedExecutable, input: MachOSigningInput): StreamedExecutable {
  const layout = layoutOf(exe.size, exe.info);
  if (layout.signatureOffset !== exe.codeLimit) throw new MachOError('badLoadCommand', 'code limit moved');
  const signer = sliceSigner(exe.info, input, layout);
  const head = Buffer.from(exe.head);
  signer.patchHeader(head);
  const headPages = Math.ceil(Math.min(head.length, exe.codeLimit) / PAGE);
  const patched = (hashType: number, page: number) => {
    const bytes = head.subarray(page * PAGE, Math.min((page + 1) * PAGE, exe.codeLimit));
    const digest = hash(hashType === CS_HASHTYPE.sha1 ? 'sha1' : 'sha256', bytes, 'buffer');
    return hashType === CS_HASHTYPE.sha1 ? digest : digest.subarray(0, hashType === CS_HASHTYPE.sha256 ? 32 : 20);
  };
  const signature = signer.build({
    length: exe.codeLimit,
    pageHash: (hashType, page) => (page < headPages ? patched(hashType, page) : pageHashOf(exe, hashType, page)),
  });
  // The digests of the bytes read are not those of the signed file.
  return { ...exe, signed: { head, signature }, digest: null };
}

/** The size of a signed streamed executable as written. */
export const signedSize = (exe: StreamedExecutable) => exe.codeLimit + (exe.signed?.signature.length ?? 0);

/**
 * The bytes of a signed streamed executable, from its source's bytes streamed again: the patched head, the code
 * up to the new signature (zeros past the source's end), the signature.
 */
export async function* signedBytes(exe: StreamedExecutable, source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  if (!exe.signed) throw new Error('not signed');
  const { head, signature } = exe.signed;
  yield head.subarray(0, Math.min(head.length, exe.codeLimit));
  let at = 0;
  for await (const chunk of source) {
    const from = at;
    at += chunk.length;
    const lo = Math.max(from, head.length);
    const hi = Math.min(at, exe.codeLimit);
    if (lo < hi) yield chunk.subarray(lo - from, hi - from);
  }
  if (at !== exe.size) throw new MachOError('truncated', 'executable changed since it was signed');
  if (exe.codeLimit > Math.max(at, head.length)) yield Buffer.alloc(exe.codeLimit - Math.max(at, head.length));
  yield signature;
}

/**
 * A signed streamed executable with the digests of its signed bytes, taken from its source streamed again: what the
 * seal of the bundle around it needs (a framework's or an extension's executable is a file of the app's seal).
 */
export async function withSignedDigest(
  exe: StreamedExecutable,
  source: AsyncIterable<Buffer>,
): Promise<StreamedExecutable> {
  const digester = createDigester();
  for await (const chunk of signedBytes(exe, source)) digester.update(chunk);
  return { ...exe, digest: digester.digest() };
}
