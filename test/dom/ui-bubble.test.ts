/** The bubble's DOM in happy-dom: provider text stays text, failures show and go, handlers fire. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BubbleView, FAILURE_MS } from '../../src/ui/bubble/view';
import { SelectionBubble, readSelection, type BubbleDeps } from '../../src/content/bubble';

afterEach(() => {
  document.body.innerHTML = '';
  vi.useRealTimers();
});

/** The bubble with its closed shadow root caught on creation, so the test can look inside. */
function view() {
  const handlers = { onClose: vi.fn(), onLanguages: vi.fn(), onOpenPopup: vi.fn() };
  let root: ShadowRoot | undefined;
  const attach = HTMLElement.prototype.attachShadow;
  const spy = vi.spyOn(HTMLElement.prototype, 'attachShadow').mockImplementation(function (this: HTMLElement, init: ShadowRootInit) {
    root = attach.call(this, init);
    return root;
  });
  const v = new BubbleView(document, handlers);
  spy.mockRestore();
  document.body.append(v.host);
  return { v, handlers, root: root! };
}

describe('bubble view', () => {
  it('inserts provider output as text, never as markup', () => {
    const { v } = view();
    v.reset();
    v.addResult({ rid: 'evil.ts', ms: 5, text: '<img src=x onerror=alert(1)>Hola' });
    expect(document.querySelector('img')).toBeNull();
    expect(v.snapshot().results[0]?.text).toBe('<img src=x onerror=alert(1)>Hola');
  });

  it('shows a translation in its language and direction: Arabic right to left', () => {
    const { v, root } = view();
    v.setLanguages('en', 'ar', { src: ['en'], trg: ['ar', 'es'] }, 'en');
    v.reset();
    v.addResult({ rid: 'a.ts', ms: 5, text: 'مرحبا بالعالم.' });
    const main = root.querySelector('.main') as HTMLElement;
    expect([main.lang, main.dir]).toEqual(['ar', 'rtl']);
    v.setLanguages('en', 'es', { src: ['en'], trg: ['ar', 'es'] }, 'en');
    v.reset();
    v.addResult({ rid: 'a.ts', ms: 5, text: 'Hola mundo.' });
    expect((root.querySelector('.main') as HTMLElement).dir).toBe('ltr');
  });

  it('shows a failed route for a while, then removes it from the screen', () => {
    vi.useFakeTimers();
    const { v, root } = view();
    v.reset();
    v.addResult({ rid: 'a.ts', ms: 5, err: '502 a.ts: down' });
    v.addResult({ rid: 'b.ts', ms: 9, text: 'Hola' });
    expect(root.querySelector('.err')?.textContent).toContain('502 a.ts: down');
    expect(root.querySelector('.main')?.textContent).toBe('Hola');
    vi.advanceTimersByTime(FAILURE_MS + 1);
    expect(root.querySelector('.err')).toBeNull();
    expect(v.snapshot().results).toHaveLength(2);
  });

  it('labels its controls, swaps languages and closes through its buttons', () => {
    const { v, handlers, root } = view();
    v.setLanguages('en', 'es', { src: ['en', 'es'], trg: ['en', 'es'] }, 'en');
    expect(root.querySelector('[role="dialog"]')?.getAttribute('aria-label')).toBe('Translation');
    expect([...root.querySelectorAll('select')].map((s) => s.getAttribute('aria-label'))).toEqual(['From', 'To']);
    (root.querySelector('button[aria-label="Swap languages"]') as HTMLButtonElement).click();
    expect(handlers.onLanguages).toHaveBeenCalledWith('es', 'en');
    (root.querySelector('button[aria-label="Close"]') as HTMLButtonElement).click();
    expect(handlers.onClose).toHaveBeenCalledOnce();
  });
});

describe('selection', () => {
  it('reads the selected range of a textarea before the document selection', () => {
    document.body.innerHTML = '<p lang="fr">Bonjour</p><textarea>Good morning, friends</textarea>';
    const area = document.querySelector('textarea')!;
    area.focus();
    area.setSelectionRange(0, 12);
    expect(readSelection(document)?.text).toBe('Good morning');
  });

  it('translates with three alternatives from the page language to the stored target, and closes on Escape', async () => {
    document.documentElement.lang = 'fr';
    document.body.innerHTML = '<p id="p">Bonjour le monde</p>';
    getSelection()!.selectAllChildren(document.getElementById('p')!);
    const calls: unknown[] = [];
    const deps: BubbleDeps = {
      callApi: async () => ({ status: 200, body: { src: ['fr', 'en'], trg: ['en', 'fr'], exclude: [] } }),
      send: vi.fn() as unknown as BubbleDeps['send'],
      translateStream: async (params, onItem) => {
        calls.push(params);
        onItem({ rid: 'a.ts', text: ['Hello world'], length: 16 }, { cached: false });
        return { status: 200, body: { dat: [] } };
      },
      detect: async () => undefined,
      uiLanguage: () => 'en-US',
    };
    const bubble = new SelectionBubble(deps, document);
    expect(await bubble.show()).toBe(true);
    expect(calls).toEqual([{ src: 'fr', trg: 'en', dat: ['Bonjour le monde'], min: 3, max: 3 }]);
    expect(bubble.snapshot()).toMatchObject({ src: 'fr', trg: 'en', results: [{ rid: 'a.ts', text: 'Hello world' }], pending: false });
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(bubble.snapshot()).toBeUndefined();
    expect(document.querySelector('polyglot-bubble')).toBeNull();
    bubble.destroy();
  });

  it("reads the selection's language where the detector is sure of it, before the page's lang; an unsure reading does not", async () => {
    document.documentElement.lang = 'en';
    document.body.innerHTML = '<p id="p">Le président a annoncé hier une réforme des retraites.</p><p id="q">Buenos días a todos</p>';
    const sent: { src?: string }[] = [];
    const deps = (reading: Record<string, { language: string; sure: boolean }>): BubbleDeps => ({
      callApi: async () => ({ status: 200, body: { src: ['fr', 'en', 'es', 'gl'], trg: ['en', 'es'], exclude: [] } }),
      send: vi.fn() as unknown as BubbleDeps['send'],
      translateStream: async (params) => {
        sent.push(params as { src?: string });
        return { status: 200, body: { dat: [] } };
      },
      // As CLD reads them: the sentence surely French, the greeting unsurely Galician.
      detect: async (text) => reading[text],
      uiLanguage: () => 'es',
    });
    const readings = {
      'Le président a annoncé hier une réforme des retraites.': { language: 'fr', sure: true },
      'Buenos días a todos': { language: 'gl', sure: false },
    };
    for (const id of ['p', 'q']) {
      getSelection()!.selectAllChildren(document.getElementById(id)!);
      const bubble = new SelectionBubble(deps(readings), document);
      await bubble.show();
      bubble.destroy();
    }
    expect(sent.map((p) => p.src)).toEqual(['fr', 'en']);
  });
});
