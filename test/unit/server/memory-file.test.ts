import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { MemoryEntry } from '../../../src/core/scheduler/memory';
import { openFileMemory } from '../../../src/server/memory-file';
import { writeAtomic } from '../../../src/server/state';

const entry = (i: number): MemoryEntry => ({
  provider: 'p.ts', src: 'en', trg: 'es', domain: 'general', format: 'html', text: `<p>text ${i} ⟦é⟧</p>`, translation: `<p>TEXT ${i}</p>`, at: i, kind: 'translated',
});

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'memory-file-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('openFileMemory', () => {
  it('compacts a file of several rewrite pieces to exactly the entries kept, which load back in order', async () => {
    const path = join(dir, 'tm.jsonl');
    const cap = 600;
    const m = await openFileMemory(path, cap);
    // One entry per set: past 2 x cap lines the file is rewritten from the 600 youngest.
    for (let i = 0; i < 2 * cap + 1; i++) await m.set([entry(i)]);
    await m.flush();
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => (JSON.parse(l) as MemoryEntry).at)).toEqual(Array.from({ length: cap }, (_, k) => cap + 1 + k));
    expect(await readdir(dir)).toEqual(['tm.jsonl']);
    const again = await openFileMemory(path, cap);
    expect(again.size).toBe(cap);
    expect((await again.get([entry(2 * cap)]))[0]).toMatchObject({ translation: `<p>TEXT ${2 * cap}</p>` });
    expect((await again.get([entry(cap)]))[0]).toBeUndefined();
  });

  it('refuses a memory file it cannot read instead of starting empty', async () => {
    const path = join(dir, 'a-directory');
    await mkdir(path);
    await expect(openFileMemory(path)).rejects.toMatchObject({ code: 'EISDIR' });
  });
});

describe('writeAtomic', () => {
  it('writes pieces one after another, multi-byte characters intact', async () => {
    const path = join(dir, 'f.txt');
    await writeAtomic(path, ['é'.repeat(3), '', '⟦x⟧\n', 'end']);
    expect(await readFile(path, 'utf8')).toBe('ééé⟦x⟧\nend');
    await writeAtomic(path, 'short');
    expect(await readFile(path, 'utf8')).toBe('short');
  });
});
