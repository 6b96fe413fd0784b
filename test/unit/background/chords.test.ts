/**
 * The shortcuts' chords (shared/chords.ts): read from the browser's own strings, published by the
 * background for the content scripts' wake (content/wake.ts), and the manifest's defaults.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { publishChords } from '../../../src/background/chords';
import { CHORDS_KEY, chordOf, chordsOf, DEFAULT_CHORDS, heldChord, isChords } from '../../../src/shared/chords';

describe('chordOf', () => {
  it('reads the modifiers of a shortcut as Chromium and Firefox write it', () => {
    expect(chordOf('Alt+Shift+T')).toBe('alt+shift');
    expect(chordOf('Shift+Alt+T')).toBe('alt+shift');
    expect(chordOf('Ctrl+Shift+Y')).toBe('ctrl+shift');
    expect(chordOf('Command+Shift+Y')).toBe('meta+shift');
    expect(chordOf('MacCtrl+Alt+P')).toBe('alt+ctrl');
  });

  it("reads macOS's symbols", () => {
    expect(chordOf('⇧⌘Y')).toBe('meta+shift');
    expect(chordOf('⌥⇧T')).toBe('alt+shift');
    expect(chordOf('⌃⌥T')).toBe('alt+ctrl');
  });

  it('has none for an unset shortcut or one of a single modifier', () => {
    expect(chordOf('')).toBeUndefined();
    expect(chordOf('Ctrl+Y')).toBeUndefined();
    expect(chordOf('⌘Y')).toBeUndefined();
  });

  it('is what a key event holding the same modifiers gives', () => {
    expect(heldChord({ altKey: true, shiftKey: true, ctrlKey: false, metaKey: false })).toBe(chordOf('Alt+Shift+T'));
    expect(heldChord({ altKey: false, shiftKey: true, ctrlKey: false, metaKey: true })).toBe(chordOf('⇧⌘Y'));
    expect(heldChord({ altKey: true, shiftKey: false, ctrlKey: false, metaKey: false })).toBeUndefined();
  });
});

describe('DEFAULT_CHORDS', () => {
  it("are the chords of the manifest's suggested shortcuts", () => {
    const manifest = JSON.parse(readFileSync(new URL('../../../manifest.json', import.meta.url), 'utf8')) as {
      commands: Record<string, { suggested_key?: { default?: string } }>;
    };
    const keys = Object.values(manifest.commands).map((c) => c.suggested_key?.default);
    expect(keys.length).toBeGreaterThan(0);
    expect(chordsOf(keys)).toEqual([...DEFAULT_CHORDS]);
  });
});

describe('publishChords', () => {
  function fakeBrowser(shortcuts: (string | undefined)[], stored?: unknown) {
    const area: Record<string, unknown> = stored === undefined ? {} : { [CHORDS_KEY]: stored };
    let writes = 0;
    const browser = {
      commands: { getAll: async () => shortcuts.map((shortcut, i) => ({ name: `c${i}`, shortcut })) },
      storage: {
        local: {
          get: async (key: string) => (key in area ? { [key]: area[key] } : {}),
          set: async (items: Record<string, unknown>) => {
            writes += 1;
            Object.assign(area, items);
          },
        },
      },
    };
    return { browser: browser as unknown as Parameters<typeof publishChords>[0], area, writes: () => writes };
  }

  it('writes the distinct chords of the shortcuts in effect, an unset one left out', async () => {
    const f = fakeBrowser(['Alt+Shift+T', 'Ctrl+Shift+S', '', undefined, 'Shift+Alt+A']);
    expect(await publishChords(f.browser)).toEqual(['alt+shift', 'ctrl+shift']);
    expect(f.area[CHORDS_KEY]).toEqual(['alt+shift', 'ctrl+shift']);
    expect(isChords(f.area[CHORDS_KEY])).toBe(true);
  });

  it('writes nothing when they have not changed, and an empty list when every shortcut is unset', async () => {
    const same = fakeBrowser(['Alt+Shift+T'], ['alt+shift']);
    await publishChords(same.browser);
    expect(same.writes()).toBe(0);
    const none = fakeBrowser(['', ''], ['alt+shift']);
    await publishChords(none.browser);
    expect(none.writes()).toBe(1);
    expect(none.area[CHORDS_KEY]).toEqual([]);
  });

  it('takes only well-formed chords from storage', () => {
    expect(isChords(['alt+shift'])).toBe(true);
    expect(isChords([])).toBe(true);
    expect(isChords(['alt'])).toBe(false);
    expect(isChords(['alt+shift', 3])).toBe(false);
    expect(isChords('alt+shift')).toBe(false);
  });
});
