import { describe, expect, it } from 'vitest';
import { DatabaseUnreachable, describeDatabase, whileDatabaseStarts } from '../../src/db/startup.ts';
import { isDatabaseUnavailable, neverApplied, NOT_SENT, retryWhileUnavailable } from '../../src/db/unavailable.ts';

/** Which failures count as the database out of reach, and the retry that waits for it (src/db/unavailable.ts). */

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it.each([
    ['57P01 admin shutdown', pgError('57P01', 'terminating connection due to administrator command')],
    ['57P03 cannot connect now', pgError('57P03', 'the database system is starting up')],
    ['08006 connection failure', pgError('08006')],
    ['53300 too many connections', pgError('53300')],
    ['ECONNREFUSED', pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['ECONNRESET', pgError('ECONNRESET', 'read ECONNRESET')],
    ['the socket ended under a query', new Error('Connection terminated unexpectedly')],
    ['a client already broken', new Error('Client has encountered a connection error and is not queryable')],
    ['the connect timeout', new Error('timeout exceeded when trying to connect')],
    ['refused on every address', new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')], '')],
    ['wrapped', new Error('Migration failed', { cause: pgError('57P01') })],
  ])('%s: yes', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', pgError('23505')],
    ['a check violation', pgError('23514')],
    ['a wrong password', pgError('28P01', 'password authentication failed for user "pixgate"')],
    ['a syntax error', pgError('42601')],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['not an error', 'Connection terminated'],
  ])('%s: no', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

describe('neverApplied: a failed write that can be sent again without applying twice', () => {
  const answered = (code: string, severity = 'FATAL') => Object.assign(pgError(code), { severity });
  it.each([
    ['the server refused it as it shut down (57P01, an answer)', answered('57P01')],
    ['a replica refused the write (25006, an answer)', answered('25006', 'ERROR')],
    ['the server was starting (57P03, an answer)', answered('57P03')],
    ['the connection could not be opened (marked by the pool)', Object.assign(pgError('ECONNREFUSED'), { [NOT_SENT]: true })],
  ])('%s: yes', (_name, error) => {
    expect(neverApplied(error)).toBe(true);
  });

  it.each([
    ['the socket ended under it, no answer', new Error('Connection terminated unexpectedly')],
    ['reset under it', pgError('ECONNRESET', 'read ECONNRESET')],
    ['57P01 without a server answer', pgError('57P01')],
    ['a statement the server refused for its content', answered('23505', 'ERROR')],
  ])('%s: no', (_name, error) => {
    expect(neverApplied(error)).toBe(false);
  });
});

describe('retryWhileUnavailable', () => {
  const fakeTime = () => {
    let nowMs = 0;
    const pauses: number[] = [];
    return { now: () => nowMs, sleep: async (ms: number) => void (pauses.push(ms), (nowMs += ms)), pauses };
  };

  it('tries again with growing pauses until the work succeeds', async () => {
    const time = fakeTime();
    let calls = 0;
    const result = await retryWhileUnavailable(
      async () => {
        calls += 1;
        if (calls < 4) throw pgError('ECONNREFUSED');
        return 'done';
      },
      { timeoutMs: 10_000, ...time },
    );
    expect(result).toBe('done');
    expect(time.pauses).toEqual([250, 500, 1_000]);
  });

  it('rethrows another failure at once', async () => {
    const time = fakeTime();
    await expect(retryWhileUnavailable(() => Promise.reject(pgError('23505')), { timeoutMs: 10_000, ...time })).rejects.toMatchObject({ code: '23505' });
    expect(time.pauses).toEqual([]);
  });

  it('gives up at the deadline with the last error; pauses never pass it', async () => {
    const time = fakeTime();
    await expect(retryWhileUnavailable(() => Promise.reject(pgError('57P03')), { timeoutMs: 2_000, ...time })).rejects.toMatchObject({ code: '57P03' });
    expect(time.pauses).toEqual([250, 500, 1_000, 250]);
  });
});

describe('start-up against an unreachable database', () => {
  it('names the database without its credentials', () => {
    expect(describeDatabase('postgres://user:secret@db.internal:6432/pixgate?sslmode=require')).toBe('db.internal:6432/pixgate');
    expect(describeDatabase('postgres://db/pixgate')).toBe('db:5432/pixgate');
    expect(describeDatabase(undefined)).toBe('the embedded database');
  });

  it('fails with DatabaseUnreachable after the timeout; a migration error is not retried', async () => {
    const refused = whileDatabaseStarts(() => Promise.reject(pgError('ECONNREFUSED', 'connect ECONNREFUSED 10.0.0.1:5432')), {
      target: '10.0.0.1:5432/pixgate',
      timeoutMs: 0,
    });
    await expect(refused).rejects.toBeInstanceOf(DatabaseUnreachable);
    await expect(refused).rejects.toThrow('cannot reach the database at 10.0.0.1:5432/pixgate (1 attempt in 0 s, DATABASE_START_TIMEOUT_MS): connect ECONNREFUSED');
    let calls = 0;
    const broken = whileDatabaseStarts(
      () => {
        calls += 1;
        return Promise.reject(new Error('Migration 009_x failed: relation exists'));
      },
      { target: 'x', timeoutMs: 10_000 },
    );
    await expect(broken).rejects.toThrow('Migration 009_x failed');
    expect(calls).toBe(1);
  });
});
