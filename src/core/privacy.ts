/**
 * Which providers keep text on this machine (privacy routing, docs/ui.md "Sites"): the browser's
 * on-device Translator (`chrome.ts`) and any provider whose effective URL is a loopback address
 * (Apertium at 127.0.0.1 by default; LibreTranslate, an LLM server or another instance of this
 * service when the user points them at localhost). What a loopback server does with the text is
 * the user's own choice. Pure: no browser.*, no DOM.
 */
import type { ProviderModule } from './provider';
import type { Settings } from './settings/types';

/** Providers that never send text over the network. */
const ON_DEVICE: ReadonlySet<string> = new Set(['chrome.ts']);

/** `localhost`, `*.localhost` (RFC 6761), 127.0.0.0/8, `[::1]`. */
export function isLoopbackUrl(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return false;
  }
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** Whether a provider, as these settings configure it, keeps text local. */
export function isLocalProvider(id: string, settings: Settings, modules: readonly ProviderModule[]): boolean {
  if (ON_DEVICE.has(id)) return true;
  const module = modules.find((m) => m.id === id);
  if (!module) return false;
  const url = settings.providers[id]?.url ?? module.defaultUrl;
  return typeof url === 'string' && isLoopbackUrl(url);
}

/** The provider ids of a route id (`google.ts,en,deepl.ts` -> both providers). */
export function routeProviders(rid: string): string[] {
  return rid.split(',').filter((part) => part.endsWith('.ts'));
}

/** A predicate for CallOptions.allowProviders: only local providers. */
export function localOnly(settings: Settings, modules: readonly ProviderModule[]): (id: string) => boolean {
  const memo = new Map<string, boolean>();
  return (id) => {
    let local = memo.get(id);
    if (local === undefined) memo.set(id, (local = isLocalProvider(id, settings, modules)));
    return local;
  };
}
