/**
 * A right-click wakes the background ahead of the context menu (content/wake.ts). Events made here
 * are not the user's (`isTrusted` false), so most tests accept every event; the e2e test
 * (test/e2e/page-wake.test.ts) right-clicks for real.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WAKE_EVERY_MS, wakeOnContextMenu } from '../../src/content/wake';

let stop: (() => void) | undefined;
afterEach(() => {
  stop?.();
  document.body.innerHTML = '';
});

const rightClick = (target: EventTarget) => target.dispatchEvent(new MouseEvent('contextmenu', { bubbles: true, cancelable: true, button: 2 }));

describe('wakeOnContextMenu', () => {
  it('wakes once per right-click, and not again while the worker it woke is still running', () => {
    let now = 1000;
    let woken = 0;
    stop = wakeOnContextMenu(window, () => (woken += 1), { now: () => now, accept: () => true });
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
    stop = wakeOnContextMenu(window, () => (woken += 1), { accept: () => true });
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
    stop = wakeOnContextMenu(window, () => (woken += 1));
    rightClick(document.body);
    expect(woken).toBe(0);
  });

  it('stops listening when asked', () => {
    let woken = 0;
    wakeOnContextMenu(window, () => (woken += 1), { accept: () => true })();
    rightClick(document.body);
    expect(woken).toBe(0);
  });
});
