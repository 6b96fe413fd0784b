import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError, configSettings, readConfig } from '../../../src/server/config';

const doc = (keyName: string) => ({
  providers: { 'apertium.ts': { enabled: true, url: 'http://127.0.0.1:2737' } },
  ranking: ['apertium.ts'],
  interlinguas: ['en'],
  keys: [{ name: keyName, key: 'test-key-123' }],
  limits: { textSize: 1000 },
});

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'config-'));
  path = join(dir, 'cfg.json');
  await writeFile(path, JSON.stringify(doc('first')));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('readConfig', () => {
  it('reads a valid document and keeps unknown fields', async () => {
    await writeFile(path, JSON.stringify({ ...doc('a'), extra: { x: 1 } }));
    const s = await readConfig(path);
    expect(s.keys[0]?.name).toBe('a');
    expect(s.extra).toEqual({ x: 1 });
  });

  it('names the file and the problem', async () => {
    await writeFile(path, '{"providers": ');
    await expect(readConfig(path)).rejects.toThrow(ConfigError);
    await expect(readConfig(path)).rejects.toThrow(new RegExp(`${path}: not valid JSON`));
    await writeFile(path, JSON.stringify({ ...doc('a'), interlinguas: 'en' }));
    await expect(readConfig(path)).rejects.toThrow(/interlinguas/);
    await expect(readConfig(join(dir, 'missing.json'))).rejects.toThrow(/missing\.json/);
  });
});

describe('configSettings', () => {
  it('returns the same object until the file changes, then the new settings', async () => {
    const warnings: string[] = [];
    const settings = await configSettings(path, (m) => warnings.push(m));
    const first = await settings();
    expect(await settings()).toBe(first);
    expect(first.keys[0]?.name).toBe('first');
    // Replaced by rename, as editors do: a new inode even if mtime and size were equal.
    await writeFile(join(dir, 'tmp.json'), JSON.stringify(doc('secnd')));
    await rename(join(dir, 'tmp.json'), path);
    const second = await settings();
    expect(second.keys[0]?.name).toBe('secnd');
    expect(await settings()).toBe(second);
  });

  it('keeps the last good settings when an edit breaks the file, and says so once', async () => {
    const warnings: string[] = [];
    const settings = await configSettings(path, (m) => warnings.push(m));
    await writeFile(path, JSON.stringify({ ...doc('x'), keys: [{ name: 'k' }] }));
    expect((await settings()).keys[0]?.name).toBe('first');
    expect((await settings()).keys[0]?.name).toBe('first');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/keys\[0\]/);
    expect(warnings[0]).not.toContain('test-key-123');
    await rm(path);
    expect((await settings()).keys[0]?.name).toBe('first');
  });

  it('refuses to start on a bad file', async () => {
    await writeFile(path, JSON.stringify({ ...doc('x'), limits: { textSize: -5 } }));
    await expect(configSettings(path, () => undefined)).rejects.toThrow(/limits/);
  });
});
