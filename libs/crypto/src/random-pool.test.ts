import { RandomPool } from './random-pool';

describe('RandomPool', () => {
  it('when many values are drawn across several refills, then none repeats and the bytes look uniform', () => {
    const pool = new RandomPool();
    const seen = new Set<string>();
    const counts = new Array<number>(256).fill(0);
    for (let i = 0; i < 5_000; i++) {
      const value = pool.bytes(12);
      seen.add(value.toString('hex'));
      for (const byte of value) counts[byte]! += 1;
    }
    expect(seen.size).toBe(5_000);
    // 60,000 bytes over 256 values: about 234 each; a stuck or zeroed pool would be far off.
    expect(Math.min(...counts)).toBeGreaterThan(150);
    expect(Math.max(...counts)).toBeLessThan(330);
  });

  it('when it fills part of a buffer, then only that part changes', () => {
    const target = Buffer.alloc(40, 0xaa);
    new RandomPool().fill(target, 8, 16);
    expect(target.subarray(0, 8).every((b) => b === 0xaa)).toBe(true);
    expect(target.subarray(24).every((b) => b === 0xaa)).toBe(true);
    expect(target.subarray(8, 24).equals(Buffer.alloc(16, 0xaa))).toBe(false);
  });

  it('when more than the pool size is asked for, then it is filled directly', () => {
    const big = new RandomPool().bytes(10_000);
    expect(big.length).toBe(10_000);
    expect(new Set(big).size).toBeGreaterThan(200);
  });
});
