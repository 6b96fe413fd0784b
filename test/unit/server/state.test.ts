import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CorruptStateError, openStateFile } from '../../../src/server/state';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'state-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('openStateFile', () => {
  it('starts empty without a file and keeps values across reopening', async () => {
    const path = join(dir, 'cfg.json.state.json');
    const store = await openStateFile(path);
    expect(await store.get('usage')).toBeUndefined();
    await store.set('usage', { keys: { test: 12 } });
    await store.set('other', [1, 2]);
    const again = await openStateFile(path);
    expect(await again.get('usage')).toEqual({ keys: { test: 12 } });
    expect(await again.get('other')).toEqual([1, 2]);
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ usage: { keys: { test: 12 } }, other: [1, 2] });
  });

  it('keeps what was stored, not later changes of the caller, and leaves no temporary files', async () => {
    const path = join(dir, 's.json');
    const store = await openStateFile(path);
    const value = { n: 1 };
    await store.set('v', value);
    value.n = 2;
    const got = await store.get<{ n: number }>('v');
    expect(got).toEqual({ n: 1 });
    got!.n = 3;
    expect(await store.get('v')).toEqual({ n: 1 });
    expect(await readdir(dir)).toEqual(['s.json']);
  });

  it('writes the last value when many sets overlap', async () => {
    const path = join(dir, 's.json');
    const store = await openStateFile(path);
    await Promise.all(Array.from({ length: 20 }, (_, i) => store.set('n', i)));
    expect(JSON.parse(await readFile(path, 'utf8'))).toEqual({ n: 19 });
    expect(await readdir(dir)).toEqual(['s.json']);
  });

  it.each([['not JSON', '{"usage": {'], ['not an object', '[1,2]'], ['empty', '']])('refuses a corrupt file (%s)', async (_name, text) => {
    const path = join(dir, 's.json');
    await writeFile(path, text);
    const e = await openStateFile(path).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(CorruptStateError);
    expect((e as Error).message).toContain(path);
    expect(await readFile(path, 'utf8')).toBe(text);
  });
});
