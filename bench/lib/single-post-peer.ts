import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Busboy, type BusboyHeaders } from '@fastify/busboy';
import { inspectPackage } from '@release/inspect';

/**
 * The single-POST reference of the small-publish bench (what ipa-server v1 does): one multipart POST whose file is
 * streamed to disk, then the same inspector as ours (in this process), then a JSON answer. No database, no
 * permissions, no icon or version bookkeeping. Run as a child process: prints `listening <url>`.
 */
const dir = process.argv[2] ?? '.';
let seq = 0;

const server = http.createServer((req, res) => {
  if (req.method !== 'POST') {
    res.writeHead(404).end();
    return;
  }
  seq += 1;
  const target = path.join(dir, `upload-${process.pid}-${seq}.ipa`);
  let written: Promise<void> | null = null;
  const form = new Busboy({
    headers: req.headers as BusboyHeaders,
    limits: { files: 1, fileSize: 64 * 1024 * 1024 },
  });
  form.on('file', (_name, file) => {
    written = pipeline(file, fs.createWriteStream(target));
  });
  form.on('finish', async () => {
    try {
      if (!written) throw new Error('no file');
      await written;
      const inspected = await inspectPackage(target);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 200, data: inspected }));
    } catch (error) {
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 400, msg: String(error) }));
    }
  });
  req.pipe(form);
});
server.listen(0, '127.0.0.1', () => {
  console.log(`listening http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
