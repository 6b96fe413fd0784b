/**
 * What a user sees of our overlays in a page, read through the DevTools protocol, which pierces
 * closed shadow roots (page scripts, and Playwright's locators, cannot).
 */
import type { Page } from 'playwright-core';

/**
 * The box of the first node inside `tag`'s host (shadow roots pierced) of that local name, or that
 * `inner` accepts; with `within`, inside the first node there that `within` accepts.
 */
export async function piercedBox(page: Page, tag: string, inner: string | ((n: DomNode) => boolean), within?: (n: DomNode) => boolean): Promise<{ x: number; y: number; width: number; height: number } | undefined> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode };
    const tagged = find(root, (n) => n.localName === tag);
    const host = tagged && within ? find(tagged, within) : tagged;
    const el = host && find(host, typeof inner === 'string' ? (n) => n.localName === inner : inner);
    if (!el?.nodeId) return undefined;
    // The button may be removed between the two calls: a node that is gone has no box.
    const got = await cdp.send('DOM.getBoxModel', { nodeId: el.nodeId }).catch((e: Error) => {
      if (/Could not find node/.test(e.message)) return undefined;
      throw e;
    });
    if (!got) return undefined;
    const { model } = got;
    const [x1, y1, x2, , , y3] = model.border;
    return { x: x1!, y: y1!, width: x2! - x1!, height: y3! - y1! };
  } finally {
    await cdp.detach();
  }
}

/** The text of the element named `tag`, through the DevTools protocol, which pierces closed shadow roots. */
/** The hover button's box once it shows (up to 3 s after the mouse came to rest), else undefined. */
export async function hoverButton(page: Page): Promise<Awaited<ReturnType<typeof piercedBox>>> {
  for (let i = 0; i < 60; i++) {
    const button = await piercedBox(page, 'polyglot-hover', 'button');
    if (button) return button;
    await new Promise((r) => setTimeout(r, 50));
  }
  return undefined;
}

export async function piercedText(page: Page, tag: string): Promise<string> {
  const cdp = await page.context().newCDPSession(page);
  const { root } = (await cdp.send('DOM.getDocument', { depth: -1, pierce: true })) as { root: DomNode };
  await cdp.detach();
  const host = find(root, (n) => n.localName === tag);
  return host ? texts(host).join('|') : '';
}

export interface DomNode {
  nodeId?: number;
  nodeType: number;
  localName?: string;
  nodeValue?: string;
  children?: DomNode[];
  shadowRoots?: DomNode[];
}

export function find(n: DomNode, test: (n: DomNode) => boolean): DomNode | undefined {
  if (test(n)) return n;
  for (const c of [...(n.shadowRoots ?? []), ...(n.children ?? [])]) {
    const f = find(c, test);
    if (f) return f;
  }
  return undefined;
}

export function texts(n: DomNode, out: string[] = []): string[] {
  if (n.nodeType === 3 && n.nodeValue?.trim() && !n.nodeValue.includes('{')) out.push(n.nodeValue);
  for (const c of [...(n.shadowRoots ?? []), ...(n.children ?? [])]) texts(c, out);
  return out;
}
