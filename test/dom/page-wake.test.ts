/**
 * A right-click, or a held shortcut chord, wakes the background ahead of the context menu or the
 * shortcut's last key (content/wake.ts). Events made here are not the user's (`isTrusted` false),
 * so most tests accept every event; the e2e test (test/e2e/page-wake.test.ts) uses real input.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WAKE_EVERY_MS, wakeAhead } from '../../src/content/wake';

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  document.body.innerHTML = '';
});

const rightClick = (target: EventTarget) => target.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, button: 2 }));

describe('wakeAhead: a right-click', () => {
  it('wakes once per right-click, and not again while the worker it woke is still running', () => {
    let now = 1000;
    let woken = 0;
    stop = wakeAhead(window, () => (woken += 1), { now: () => now, accept: () => true });
    document.body.innerHTML = '<p>Some <b id="b">text</b></p>';
    rightClick(document.getElementById('b')!);
    expect(woken).toBe(1);
    now += WAKE_EVERY_MS - 1;
    rightClick(document.body);
    expect(woken).toBe(1);
    now += 1;
    rightClick(document.body);
    expect(woken).toBe(2);
  });

  it('hears a right-click the page stops from bubbling, and leaves the page its menu', () => {
    let woken = 0;
    stop = wakeAhead(window, () => (woken += 1), { accept: () => true });
    document.body.innerHTML = '<div id="app">app</div>';
    const app = document.getElementById('app')!;
    // A web app with its own menu stops the event where it happens; the page's menu still opens.
    app.addEventListener('contextmenu', (e) => {
      e.stopPropagation();
      e.preventDefault();
    });
    expect(rightClick(app)).toBe(false);
    expect(woken).toBe(1);
  });

  it('does not count a contextmenu event the page made itself', () => {
    let woken = 0;
    stop = wakeAhead(window, () => (woken += 1));
    rightClick(document.body);
    expect(woken).toBe(0);
  });

  it('stops listening when asked', () => {
    let woken = 0;
    wakeAhead(window, () => (woken += 1), { accept: () => true })();
    rightClick(document.body);
    expect(woken).toBe(0);
  });
});

/** A modifier's keydown as the browser sends it: `key` the modifier, the flags of every modifier held. */
const press = (key: 'Alt' | 'Shift' | 'Control' | 'Meta', held: { alt?: boolean; shift?: boolean; ctrl?: boolean; meta?: boolean }, repeat = false) =>
  document.body.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true, altKey: !!held.alt, shiftKey: !!held.shift, ctrlKey: !!held.ctrl, metaKey: !!held.meta, repeat }));

describe('wakeAhead: a held shortcut chord', () => {
  it('wakes when the second modifier of Alt+Shift goes down, in either order', () => {
    let now = 0;
    let woken = 0;
    stop = wakeAhead(window, () => (woken += 1), { now: () => now, accept: () => true });
    press('Alt', { alt: true });
    expect(woken).toBe(0);
    press('Shift', { alt: true, shift: true });
    expect(woken).toBe(1);
    now += WAKE_EVERY_MS;
    press('Shift', { shift: true });
    expect(woken).toBe(1);
    press('Alt', { alt: true, shift: true });
    expect(woken).toBe(2);
  });

  it('does not wake on one modifier, another chord, a letter, a key held down or a page-made event', () => {
    let woken = 0;
    stop = wakeAhead(window, () => (woken += 1), { accept: () => true });
    press('Control', { ctrl: true });
    press('Shift', { ctrl: true, shift: true });
    press('Alt', { alt: true });
    press('Shift', { alt: true, shift: true }, true);
    // A letter typed with the chord held is not the chord forming (the shortcut's own key never reaches a page).
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: 'T', bubbles: true, altKey: true, shiftKey: true }));
    expect(woken).toBe(0);
    stop();
    stop = wakeAhead(window, () => (woken += 1));
    press('Shift', { alt: true, shift: true });
    expect(woken).toBe(0);
  });

  it('follows the chords in effect, read at each modifier, and shares the right-click\'s limit', () => {
    let chords: readonly string[] = ['ctrl+shift'];
    let asked = 0;
    let woken = 0;
    stop = wakeAhead(window, () => (woken += 1), { accept: () => true, chords: () => (asked++, chords) });
    press('Shift', { alt: true, shift: true });
    expect(woken).toBe(0);
    press('Shift', { ctrl: true, shift: true });
    expect(woken).toBe(1);
    expect(asked).toBe(2);
    rightClick(document.body);
    expect(woken).toBe(1);
  });
});
