import { describe, expect, it, vi } from 'vitest';
import { classifiedFault, FaultLog } from '../src/fault-log.js';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:56379'), { code: 'ECONNREFUSED' });

function recordingLogger() {
  const lines: { level: string; fields: Record<string, unknown>; message: string }[] = [];
  const at = (level: string) => (fields: Record<string, unknown>, message: string) =>
    void lines.push({ level, fields, message });
  return { lines, logger: { error: at('error'), warn: at('warn') } as never };
}

describe('classifiedFault', () => {
  it('names connection faults of Redis and PostgreSQL, also as a cause or inside an AggregateError', () => {
    expect(classifiedFault(refused())).toBe('ECONNREFUSED');
    expect(
      classifiedFault(
        Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' }),
      ),
    ).toBe('57P01');
    expect(classifiedFault(new Error('Connection is closed.'))).toBe('connection lost');
    expect(classifiedFault(new Error('wrapped', { cause: refused() }))).toBe('ECONNREFUSED');
    expect(classifiedFault(new AggregateError([refused()], ''))).toBe('ECONNREFUSED');
    expect(classifiedFault(new Error('Client has encountered a connection error and is not queryable'))).toBe(
      'database unavailable',
    );
    const prismaWrapped = Object.assign(new Error('Database error. Code: `57P01`.'), {
      code: 'P2039',
      meta: { driverAdapterError: { cause: { originalCode: '57P01' } } },
    });
    expect(classifiedFault(prismaWrapped)).toBe('database unavailable');
    expect(classifiedFault(new TypeError('x is undefined'))).toBeUndefined();
    expect(classifiedFault('a string')).toBeUndefined();
  });
});

describe('FaultLog', () => {
  it('logs a repeating fault once, then its count once per interval, without frames', () => {
    vi.useFakeTimers();
    try {
      const { lines, logger } = recordingLogger();
      const log = new FaultLog(logger, 10_000);
      for (let i = 0; i < 50; i++) log.error(refused(), 'delivery worker error');
      expect(lines).toEqual([
        {
          level: 'warn',
          fields: { fault: 'ECONNREFUSED', error: { type: 'Error', code: 'ECONNREFUSED' } },
          message: 'delivery worker error',
        },
      ]);
      vi.advanceTimersByTime(10_000);
      expect(lines[1]).toEqual({
        level: 'warn',
        fields: { repeats: 49, interval_s: 10 },
        message: 'delivery worker error (repeated 49 times in the last 10 s)',
      });
      log.error(refused(), 'delivery worker error'); // a new interval: logged again
      vi.advanceTimersByTime(10_000);
      expect(lines).toHaveLength(3); // no repeats in that interval: no count line
    } finally {
      vi.useRealTimers();
    }
  });

  it('logs an unexpected error at error level with its frames, and different faults each once', () => {
    const { lines, logger } = recordingLogger();
    const log = new FaultLog(logger, 10_000);
    log.error(new TypeError('boom'), 'relay error');
    log.error(new TypeError('boom'), 'relay error');
    log.error(refused(), 'relay error');
    expect(lines.map((l) => l.level)).toEqual(['error', 'warn']);
    expect((lines[0]!.fields.error as { at?: string[] }).at?.length).toBeGreaterThan(0);
  });
});
