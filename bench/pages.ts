/**
 * Page workloads for the bench: the text of the largest pages in ../shared/pages, cut as a content
 * script would send them: block-level HTML fragments of the body, packed in document order into
 * frm=html Translate calls of at most 1000 characters (the interface's default text-size limit).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { splitDocument } from '../src/core/html/chunks';

export const CALL_CHARS = 1000;
export const PAGES_DIR = process.env.SHARED_DIR ? join(process.env.SHARED_DIR, 'pages') : resolve(import.meta.dirname, '../../shared/pages');

export interface Workload {
  name: string;
  /** The dat of each Translate call (markup included). */
  calls: string[];
  /** Fragments left out: longer than one call even when split at every block. */
  skipped: number;
}

const cp = (s: string) => [...s].length;
const hasLetters = (s: string) => /\p{L}/u.test(s.replace(/<[^>]*>/g, ''));

/** Block fragments of at most CALL_CHARS characters (markup included), in document order. */
function fragments(html: string, textChars: number, out: string[], skipped: { n: number }): void {
  for (const f of splitDocument(html, textChars)) {
    if (!hasLetters(f)) continue;
    if (cp(f) <= CALL_CHARS) out.push(f);
    else if (textChars > 50 && f !== html) fragments(f, Math.floor(textChars / 3), out, skipped);
    else skipped.n += 1;
  }
}

export function pageCalls(html: string): { calls: string[]; skipped: number } {
  const body = /<body[^>]*>([\s\S]*)<\/body>/i.exec(html)?.[1] ?? html;
  // Scripts and styles are never sent by a content script.
  const clean = body.replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1>/gi, '').replace(/<!--[\s\S]*?-->/g, '');
  const frags: string[] = [];
  const skipped = { n: 0 };
  fragments(clean, 600, frags, skipped);
  const calls: string[] = [];
  let cur = '';
  for (const f of frags) {
    if (cur && cp(cur) + cp(f) > CALL_CHARS) {
      calls.push(cur);
      cur = '';
    }
    cur += f;
  }
  if (cur) calls.push(cur);
  return { calls, skipped: skipped.n };
}

/** The `count` largest pages by file size, each a workload; undefined when the folder is missing. */
export function largestPages(count: number): Workload[] | undefined {
  if (!existsSync(PAGES_DIR)) return undefined;
  const files = readdirSync(PAGES_DIR)
    .filter((f) => f.endsWith('.html'))
    .map((f) => ({ f, size: statSync(join(PAGES_DIR, f)).size }))
    .sort((a, b) => b.size - a.size)
    .slice(0, count);
  return files.map(({ f }) => ({ name: f.replace(/\.html$/, ''), ...pageCalls(readFileSync(join(PAGES_DIR, f), 'utf8')) }));
}

/** Several workloads one after the other as one page (a long reading session), up to `maxChars`. */
export function combined(name: string, parts: Workload[], maxChars: number): Workload {
  const calls: string[] = [];
  let chars = 0;
  for (const c of parts.flatMap((p) => p.calls)) {
    if (chars + cp(c) > maxChars) break;
    calls.push(c);
    chars += cp(c);
  }
  return { name, calls, skipped: parts.reduce((n, p) => n + p.skipped, 0) };
}
