/** The tab's badge for each page status (background/page.ts `badgeOf`). */
import { describe, expect, it } from 'vitest';
import { badgeOf } from '../../../src/background/page';
import type { PageStatus } from '../../../src/shared/messages';

const status = (s: Partial<PageStatus>): PageStatus => ({ state: 'translated', done: 0, total: 0, errors: 0, ...s });

describe('badgeOf', () => {
  it('shows progress, done, failures and a stop', () => {
    expect(badgeOf(status({ state: 'original' })).text).toBe('');
    expect(badgeOf(status({ state: 'translating', done: 37, total: 100 })).text).toBe('37%');
    expect(badgeOf(status({ done: 100, total: 100 })).text).toBe('✓');
    expect(badgeOf(status({ done: 97, total: 100, errors: 3, error: '503 down' })).text).toBe('!');
    expect(badgeOf(status({ state: 'cancelled', done: 40, total: 100 })).text).toBe('×');
    // Nothing to translate (all of it translate="no"): no check mark, as nothing changed.
    expect(badgeOf(status({ done: 0, total: 0 })).text).toBe('');
    // Stopped after calls failed in a row: most units were never sent, but the page failed.
    expect(badgeOf(status({ state: 'cancelled', done: 0, total: 348, errors: 250, error: '400 no route from en to fr' })).text).toBe('!');
  });
});
