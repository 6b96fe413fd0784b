/**
 * Serves files of a folder (the real-world pages of ../shared/pages) and inline test pages on
 * 127.0.0.1. Real pages go out with `script-src 'none'`: their scripts never run, so the page is
 * static and body.innerHTML before and after restore can be compared. Under `/scripts-on/` the same
 * pages run their own scripts, as in a reader's browser (those from other hosts cannot load here:
 * the browsers' resolver rule), with nothing else loaded (images, fonts, fetches, frames).
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

export interface PageServer {
  origin: string;
  /** Serves `html` at `path` (scripts allowed: for test apps), with extra response headers if given. */
  set(path: string, html: string, headers?: Record<string, string>): void;
  close(): Promise<void>;
}

/** Where the folder's pages are served with their own scripts running. */
export const SCRIPTS_ON = '/scripts-on/';

export async function startPageServer(folder?: string): Promise<PageServer> {
  const inline = new Map<string, string>();
  const inlineHeaders = new Map<string, Record<string, string>>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const own = inline.get(path);
    if (own !== undefined) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', ...inlineHeaders.get(path) });
      res.end(own);
      return;
    }
    const scripts = path.startsWith(SCRIPTS_ON);
    const file = folder ? normalize(join(folder, decodeURIComponent(scripts ? path.slice(SCRIPTS_ON.length - 1) : path))) : '';
    if (!folder || !file.startsWith(folder) || !file.endsWith('.html')) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    readFile(file).then(
      (data) => {
        // No charset: the page's own <meta charset> decides, as it did where it was saved.
        res.writeHead(200, {
          'content-type': 'text/html',
          'content-security-policy': `script-src ${scripts ? "'self' 'unsafe-inline'" : "'none'"}; img-src 'none'; media-src 'none'; font-src 'none'; connect-src 'none'; frame-src 'none'`,
        });
        res.end(data);
      },
      () => {
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('not found');
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    set: (path, html, headers) => {
      inline.set(path, html);
      if (headers) inlineHeaders.set(path, headers);
      else inlineHeaders.delete(path);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
