/**
 * The modifier chords of the extension's keyboard shortcuts ("alt+shift" for Alt+Shift+T), so a
 * content script can wake the background when the user holds one, before the shortcut's last key
 * (content/wake.ts). The background publishes the chords in effect (the user may rebind them in
 * the browser's shortcut settings) under `CHORDS_KEY` in storage.local; until a page has read
 * them it uses the manifest's own, `DEFAULT_CHORDS`.
 *
 * A chord is its modifiers in a fixed order, joined by "+": alt, ctrl, meta, shift. Only chords of
 * two modifiers or more count: one held Ctrl or Alt starts a copy, a paste or a menu far more often
 * than one of our shortcuts.
 */
export const CHORDS_KEY = 'wake:chords';

/** The chords of manifest.json's suggested keys (Alt+Shift+T, +S, +A); a unit test holds them equal. */
export const DEFAULT_CHORDS: readonly string[] = ['alt+shift'];

const ORDER = ['alt', 'ctrl', 'meta', 'shift'] as const;
type Modifier = (typeof ORDER)[number];

/** Names and macOS symbols as `commands.getAll()` writes them ("Alt+Shift+T", "⇧⌘Y", "MacCtrl+Shift+Y"). */
const NAMES: Record<string, Modifier> = {
  alt: 'alt', option: 'alt', '⌥': 'alt',
  ctrl: 'ctrl', control: 'ctrl', macctrl: 'ctrl', '⌃': 'ctrl',
  command: 'meta', cmd: 'meta', meta: 'meta', '⌘': 'meta',
  shift: 'shift', '⇧': 'shift',
};

function chordOfSet(held: ReadonlySet<Modifier>): string | undefined {
  return held.size >= 2 ? ORDER.filter((m) => held.has(m)).join('+') : undefined;
}

/** A shortcut's chord; undefined when it is unset or has fewer than two modifiers. */
export function chordOf(shortcut: string): string | undefined {
  const tokens = shortcut.includes('+') ? shortcut.split('+') : [...shortcut];
  const held = new Set<Modifier>();
  for (const t of tokens) {
    const m = NAMES[t.trim().toLowerCase()];
    if (m) held.add(m);
  }
  return chordOfSet(held);
}

/** The chord a key event holds, as `chordOf` writes it; undefined under two modifiers. */
export function heldChord(e: Pick<KeyboardEvent, 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey'>): string | undefined {
  const held = new Set<Modifier>();
  if (e.altKey) held.add('alt');
  if (e.ctrlKey) held.add('ctrl');
  if (e.metaKey) held.add('meta');
  if (e.shiftKey) held.add('shift');
  return chordOfSet(held);
}

/** The distinct chords of a list of shortcuts, sorted. */
export function chordsOf(shortcuts: readonly (string | undefined)[]): string[] {
  return [...new Set(shortcuts.map((s) => chordOf(s ?? '')).filter((c): c is string => c !== undefined))].sort();
}

/** A stored value, if it is a list of chords. */
export function isChords(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((c) => typeof c === 'string' && /^(alt|ctrl|meta|shift)(\+(alt|ctrl|meta|shift))+$/.test(c));
}
