import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { isDiskFull } from '../storage/faults.ts';
import { databaseFault, markPostgresError } from './faults.ts';

function errno(code: string): Error {
  return Object.assign(new Error(`${code} on a socket`), { code });
}
function sqlState(code: string): Error {
  return Object.assign(new Error(`server said ${code}`), { code, severity: 'FATAL' });
}

describe('which database failures are the place, not the request', () => {
  it('PostgreSQL: a lost, refused or silent connection, a server going down or full, an exhausted pool, a statement past its timeout — when they come from our driver', () => {
    for (const error of [
      errno('ECONNRESET'),
      errno('ECONNREFUSED'),
      errno('EPIPE'),
      sqlState('57P01'),
      sqlState('57P03'),
      sqlState('08006'),
      sqlState('53300'),
      sqlState('57014'),
    ]) {
      expect(databaseFault(markPostgresError(error))).toBe('unavailable');
    }
    for (const message of [
      'Connection terminated unexpectedly',
      'timeout exceeded when trying to connect',
      'Client has encountered a connection error and is not queryable',
      'Query read timeout',
    ]) {
      expect(databaseFault(markPostgresError(new Error(message)))).toBe('unavailable');
    }
    expect(databaseFault(markPostgresError(sqlState('53100')))).toBe('full');
  });

  it('not a constraint, a syntax error or a protocol bug; not a socket error from elsewhere (a Lark call)', () => {
    for (const code of ['23505', '42601', '08P01']) expect(databaseFault(markPostgresError(sqlState(code)))).toBeNull();
    expect(databaseFault(errno('ECONNRESET'))).toBeNull();
    expect(databaseFault(new Error('Connection terminated unexpectedly'))).toBeNull();
    expect(databaseFault(null)).toBeNull();
  });

  it('is found behind the causes a service wrapped it in', () => {
    const lost = markPostgresError(sqlState('57P01'));
    expect(databaseFault(new Error('saving failed', { cause: new Error('in a transaction', { cause: lost }) }))).toBe(
      'unavailable',
    );
  });

  it("SQLite: a database another connection keeps busy is 'unavailable'; SQLITE_FULL is 'full'; a constraint is neither", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'release-faults-'));
    const file = path.join(dir, 'busy.db');
    const holder = new DatabaseSync(file);
    const other = new DatabaseSync(file);
    const failure = (work: () => void): unknown => {
      try {
        work();
      } catch (error) {
        return error;
      }
      return null;
    };
    try {
      holder.exec('create table t (id integer primary key); insert into t values (1); begin immediate;');
      const busy = failure(() => other.exec('insert into t values (2)'));
      expect(busy).toMatchObject({ code: 'ERR_SQLITE_ERROR', errcode: 5 });
      expect(databaseFault(busy)).toBe('unavailable');
      holder.exec('rollback');
      expect(databaseFault(failure(() => other.exec('insert into t values (1)')))).toBeNull();
    } finally {
      holder.close();
      other.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
    // Its shape as node:sqlite gives it on a full disk (test/disk-full.test.ts makes a real one).
    expect(
      databaseFault(Object.assign(new Error('database or disk is full'), { code: 'ERR_SQLITE_ERROR', errcode: 13 })),
    ).toBe('full');
    // WeCom's refusals carry an errcode too: not SQLite's.
    expect(databaseFault(Object.assign(new Error('wecom'), { errcode: 13 }))).toBeNull();
  });

  it('a full disk: ENOSPC or EDQUOT, also as a cause', () => {
    expect(isDiskFull(errno('ENOSPC'))).toBe(true);
    expect(isDiskFull(new Error('upload failed', { cause: errno('EDQUOT') }))).toBe(true);
    expect(isDiskFull(errno('EACCES'))).toBe(false);
  });
});
