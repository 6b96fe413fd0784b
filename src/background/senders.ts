/**
 * Who sent a message. Only the extension itself is ever answered: its pages (by origin), its options
 * page (by path), its content scripts (by tab). Web pages cannot message us (no
 * externally_connectable) and other extensions arrive on onMessageExternal, which we never listen to;
 * the id check is the second line of defence.
 */
import type { Runtime } from 'webextension-polyfill';

export type SenderKind = 'options' | 'page' | 'content';

export interface Self {
  /** runtime.id */
  id: string;
  /** The extension origin, e.g. `chrome-extension://<id>`. */
  origin: string;
  /** Path of the options page, e.g. `/src/ui/options/index.html`. */
  optionsPath: string;
}

/**
 * `scheme://host[:port]`. URL.origin is "null" for non-special schemes outside Chromium (Node,
 * and by the URL standard), which would make every moz-extension:// page look alike.
 */
export function originOf(url: URL): string {
  return `${url.protocol}//${url.host}`;
}

function parse(url: string | undefined): URL | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/** The kind of a sender, or undefined for anyone we do not answer. */
export function classifySender(sender: Runtime.MessageSender | undefined, self: Self): SenderKind | undefined {
  if (!sender || sender.id !== self.id) return undefined;
  const url = parse(sender.url);
  // Extension pages opened in a tab also carry sender.tab: the origin decides first.
  if (url && originOf(url) === self.origin) return url.pathname === self.optionsPath ? 'options' : 'page';
  // Our content scripts run only where the manifest puts them, so a tab is all that is left to check.
  return sender.tab !== undefined ? 'content' : undefined;
}

/** The web origin a call comes from, for the service's key checks and usage. */
export function senderOrigin(sender: Runtime.MessageSender): string | undefined {
  const withOrigin = sender as Runtime.MessageSender & { origin?: string };
  if (withOrigin.origin) return withOrigin.origin;
  const url = parse(sender.url);
  return url ? originOf(url) : undefined;
}

export function selfFrom(runtime: Pick<Runtime.Static, 'id' | 'getURL' | 'getManifest'>): Self {
  const origin = originOf(new URL(runtime.getURL('/')));
  const page = runtime.getManifest().options_ui?.page ?? '';
  // Resolved against a special scheme: paths of non-special URLs are not normalized everywhere.
  return { id: runtime.id, origin, optionsPath: new URL(page, 'https://x/').pathname };
}
