import { describe, expect, it } from 'vitest';
import { classifySender, selfFrom, senderOrigin } from '../../../src/background/senders';
import { CONTENT_SENDER, OPTIONS_SENDER, OTHER_EXTENSION, PAGE_SENDER, SELF } from './fakes';

describe('classifySender', () => {
  it('tells the options page, other extension pages and content scripts apart', () => {
    expect(classifySender(OPTIONS_SENDER, SELF)).toBe('options');
    expect(classifySender(PAGE_SENDER, SELF)).toBe('page');
    expect(classifySender(CONTENT_SENDER, SELF)).toBe('content');
  });

  it('answers nobody else', () => {
    expect(classifySender(undefined, SELF)).toBeUndefined();
    expect(classifySender(OTHER_EXTENSION, SELF)).toBeUndefined();
    // Another extension's content script: a tab, but not our id.
    expect(classifySender({ ...CONTENT_SENDER, id: 'other-id' }, SELF)).toBeUndefined();
    // Our id without a tab and without our origin: not a context we have.
    expect(classifySender({ id: SELF.id, url: 'https://example.com/' }, SELF)).toBeUndefined();
    expect(classifySender({ id: SELF.id }, SELF)).toBeUndefined();
  });

  it('does not take a look-alike path on another origin for the options page', () => {
    const sender = { id: SELF.id, url: `http://127.0.0.1:9${SELF.optionsPath}`, tab: CONTENT_SENDER.tab! };
    expect(classifySender(sender, SELF)).toBe('content');
  });
});

describe('senderOrigin', () => {
  it('prefers sender.origin, else the origin of sender.url', () => {
    expect(senderOrigin(CONTENT_SENDER)).toBe('http://127.0.0.1:8000');
    expect(senderOrigin(PAGE_SENDER)).toBe(SELF.origin);
  });
});

describe('selfFrom', () => {
  it('derives the origin and options path from the runtime', () => {
    const runtime = {
      id: 'abc',
      getURL: (p: string) => `chrome-extension://abc${p.startsWith('/') ? p : `/${p}`}`,
      getManifest: () => ({ manifest_version: 3, name: 'x', version: '1', options_ui: { page: 'src/ui/options/index.html' } }),
    };
    expect(selfFrom(runtime)).toEqual({ id: 'abc', origin: 'chrome-extension://abc', optionsPath: '/src/ui/options/index.html' });
  });
});
