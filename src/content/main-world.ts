/**
 * The one script we run in the page's own world (manifest: `"world": "MAIN"`): it tells the
 * content script when a custom element name gets defined (upgrades.ts). Nothing else.
 */
import { serveUpgrades } from './upgrades';

serveUpgrades(document, globalThis.customElements);
