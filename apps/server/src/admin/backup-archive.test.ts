import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readTableFile, writeTableFile } from './backup-archive.ts';

describe('a backup table file read back', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-backup-table-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const columns = ['id', 'name', 'note'];
  const read = async (file: string) => {
    const rows = [];
    for await (const batch of readTableFile(file, columns, 2)) rows.push(...batch);
    return rows;
  };
  const handMade = (name: string, lines: string[]) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, gzipSync(`${lines.join('\n')}\n`));
    return file;
  };

  it('gives back the rows it wrote, in batches', async () => {
    const file = path.join(dir, 'users.ndjson.gz');
    const rows = [
      [1, '米拉', null],
      [2, 'Ola', 'x'],
      [3, 'Li', ''],
    ];
    await writeTableFile(
      file,
      columns,
      (async function* () {
        yield rows;
      })(),
    );
    expect(await read(file)).toEqual(rows);
  });

  it('says which file and line do not fit, for a header or a row of another shape', async () => {
    await expect(read(handMade('a.ndjson.gz', ['null', '[1,"a",null]']))).rejects.toThrow(
      'a.ndjson.gz names other columns than manifest.json',
    );
    await expect(read(handMade('b.ndjson.gz', ['{"columns":["id","name"]}']))).rejects.toThrow(
      'b.ndjson.gz names other columns than manifest.json',
    );
    const header = JSON.stringify({ columns });
    for (const row of ['[1,"a"]', '{"id":1}', '[1,"a",{"x":1}]', '[1,"a",nul']) {
      await expect(read(handMade('c.ndjson.gz', [header, '[1,"a",null]', row]))).rejects.toThrow(
        /^c\.ndjson\.gz holds a row of the wrong shape \(line 3: /,
      );
    }
  });
});
