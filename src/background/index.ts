/**
 * The background entry: a service worker in Chromium, an event page in Firefox. Every listener is
 * registered synchronously at top level, or a worker woken by an event would miss that event.
 */
import { createService } from '../core/service';
import { PROVIDERS } from '../providers/index';
import { ext } from '../shared/browser';
import { PUBLISH_AFTER_MS, publishChords } from './chords';
import { contentPolicy } from './content-calls';
import { createFetchListener } from './fetch-route';
import { forgetClosedTabs, frames } from './frames';
import { guardFetch } from './host-access';
import { frameProgress, registerPageControls } from './page';
import { registerSelectionControls } from './selection';
import { idbMemory } from './memory-idb';
import { asOnMessageListener, createMessageHandler } from './router';
import { selfFrom } from './senders';
import { createSettingsStore } from './settings';
import { registerSync } from './sync';
import { createConnectListener } from './translate-port';
import { storageKeyValueStore } from './usage-store';

const browser = ext();
const self_ = selfFrom(browser.runtime);
const settings = createSettingsStore();
// Opened now, beside the settings and the language lists: the first lookup of a woken worker need
// not wait for it (measured: 60 ms before the first provider request in a new profile).
const memory = idbMemory();
memory.open().catch(() => undefined);
const service = createService({
  settings: () => settings.get(),
  providers: PROVIDERS,
  store: storageKeyValueStore(),
  // Bound: a bare `fetch` called as a method of another object throws "Illegal invocation".
  // Guarded: provider origins beyond loopback need their optional host permission (host-access.ts).
  fetch: guardFetch(globalThis.fetch.bind(globalThis), () => browser.permissions),
  // In IndexedDB, not RAM: the worker stays small and the memory outlives it.
  memory,
  warn: (message) => console.warn(message),
});

// Privacy routing and the provider log for content scripts' calls (messages and the port alike).
const policy = contentPolicy({ service, settings });
browser.runtime.onMessage.addListener(asOnMessageListener(createMessageHandler({ service, settings, self: self_, contentPolicy: policy })));
browser.runtime.onConnect.addListener(createConnectListener({ service, self: self_, contentPolicy: policy }));
// A trigger starts building the language lists at once (a worker it woke has none yet).
const warm = () => void service.warm();
registerPageControls(browser, service);
registerSelectionControls(browser, warm);
registerSync(browser);
// Off any trigger's path: the shortcuts' chords, for the content scripts' wake (content/wake.ts);
// the tabs closed since, out of what is kept of translated tabs in storage.session.
setTimeout(() => {
  void publishChords(browser).catch(() => undefined);
  void forgetClosedTabs(browser.tabs, frames(), frameProgress()).catch(() => undefined);
}, PUBLISH_AFTER_MS);
// No page is translated when the browser starts, nor after the extension is installed or updated
// (pages translated before keep the old content script, which no longer answers): frames stop asking.
const noTranslatedTabs = () => void frames().reset().catch(() => undefined);
browser.runtime.onStartup.addListener(noTranslatedTabs);
browser.runtime.onInstalled.addListener(noTranslatedTabs);

// Only a service worker has skipWaiting; in Firefox's event page the global is a Window.
if (typeof (globalThis as { skipWaiting?: unknown }).skipWaiting === 'function') {
  const sw = globalThis as unknown as ServiceWorkerGlobalScope;
  // A new version takes over at once and controls the open extension pages, so their
  // fetch('/api/...') reaches a worker instead of the network.
  sw.addEventListener('install', () => {
    void sw.skipWaiting();
  });
  sw.addEventListener('activate', (event) => event.waitUntil(sw.clients.claim()));
  sw.addEventListener('fetch', createFetchListener(service, self_.origin));
}
