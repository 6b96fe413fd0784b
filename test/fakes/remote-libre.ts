/**
 * A LibreTranslate-like fake that stands for a provider on the network: served on 127.0.0.1 but
 * reached as `http://remote.test:<port>` (a host-resolver rule in the e2e browser), so privacy
 * routing counts it as non-local. It answers CORS (the worker has no host permission for it) and
 * marks text as `⟪text⟫`, so a page shows which provider translated it.
 */
import type { ServerResponse } from 'node:http';
import { serve } from './fake-service';

export interface RemoteLibre {
  /** `http://remote.test:<port>` */
  url: string;
  /** Texts sent to /translate, in order. */
  readonly texts: string[];
  close(): Promise<void>;
}

const mark = (q: string) => q.replace(/(<[^>]*>)|([^<]+)/g, (_m, tag?: string, text?: string) =>
  tag ?? (/\p{L}/u.test(text ?? '') ? (text ?? '').replace(/^(\s*)([\s\S]*?)(\s*)$/, '$1⟪$2⟫$3') : (text ?? '')));

export async function startRemoteLibre(host = 'remote.test'): Promise<RemoteLibre> {
  const texts: string[] = [];
  const send = (res: ServerResponse, status: number, body?: unknown) => {
    res.writeHead(status, {
      'access-control-allow-origin': '*',
      'access-control-allow-headers': 'content-type',
      'access-control-allow-methods': 'GET, POST',
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    });
    res.end(body === undefined ? undefined : JSON.stringify(body));
  };
  const server = await serve((req, res, body) => {
    if (req.method === 'OPTIONS') return send(res, 204);
    if (req.url === '/languages') return send(res, 200, ['en', 'es', 'fr'].map((code) => ({ code, name: code, targets: ['en', 'es', 'fr'].filter((c) => c !== code) })));
    if (req.url === '/translate' && req.method === 'POST') {
      const { q } = JSON.parse(body.toString('utf8')) as { q: string | string[] };
      const list = Array.isArray(q) ? q : [q];
      texts.push(...list);
      return send(res, 200, { translatedText: Array.isArray(q) ? list.map(mark) : mark(q) });
    }
    return send(res, 404, { error: 'not found' });
  });
  return { url: `http://${host}:${new URL(server.url).port}`, texts, close: server.close };
}
