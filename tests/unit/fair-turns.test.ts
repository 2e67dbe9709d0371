import { FairTurns } from '../../src/plugins/artikel/server/src/infrastructure/fair-turns';

/** Work that finishes when the test says so, recording when it started. */
function controllable(log: string[], name: string) {
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  return {
    work: async () => {
      log.push(name);
      await done;
      return name;
    },
    finish: () => finish(),
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('fair turns between clients', () => {
  it('serves another client next, not after every piece of work the first one queued', async () => {
    const turns = new FairTurns(1, 8);
    const started: string[] = [];
    const flood = ['a1', 'a2', 'a3', 'a4'].map((name) => controllable(started, name));
    const other = controllable(started, 'b1');
    const promises = flood.map((item) => turns.run('a', item.work));
    const answer = turns.run('b', other.work);
    await settle();
    expect(started).toEqual(['a1']);
    flood[0].finish();
    await settle();
    expect(started).toEqual(['a1', 'b1']);
    other.finish();
    await expect(answer).resolves.toBe('b1');
    for (const item of flood.slice(1)) item.finish();
    await Promise.all(promises);
    expect(started).toEqual(['a1', 'b1', 'a2', 'a3', 'a4']);
  });

  it('refuses a client with its line full, while another client is still taken', async () => {
    const turns = new FairTurns(1, 2);
    const started: string[] = [];
    const running = controllable(started, 'a1');
    void turns.run('a', running.work);
    expect(turns.run('a', controllable(started, 'a2').work)).not.toBeNull();
    expect(turns.run('a', controllable(started, 'a3').work)).not.toBeNull();
    expect(turns.run('a', controllable(started, 'a4').work)).toBeNull();
    expect(turns.run('b', controllable(started, 'b1').work)).not.toBeNull();
    expect(turns.waiting).toBe(3);
    running.finish();
  });

  it('runs up to its slots at once, and a failed piece of work frees its slot', async () => {
    const turns = new FairTurns(2, 8);
    const started: string[] = [];
    const first = controllable(started, 'a1');
    const second = controllable(started, 'b1');
    const third = controllable(started, 'c1');
    void turns.run('a', first.work);
    void turns.run('b', second.work);
    const failing = turns.run('d', async () => {
      started.push('d1');
      throw new Error('failed');
    });
    const last = turns.run('c', third.work);
    await settle();
    expect(started).toEqual(['a1', 'b1']);
    first.finish();
    await expect(failing).rejects.toThrow('failed');
    await settle();
    expect(started).toEqual(['a1', 'b1', 'd1', 'c1']);
    second.finish();
    third.finish();
    await expect(last).resolves.toBe('c1');
  });
});
