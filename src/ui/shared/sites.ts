/**
 * Editing one site's rule from the popup. Each panel (page bar, "This site") holds its own copy
 * of the rules, so a rule is changed from its stored value, never from a panel's copy: a change
 * in one panel cannot undo the other's. The panel's copy shows a change at once (`shownEdit`, `shownChange`).
 */
import { applySitePatch, type SitePatch, type SitePrefs, type SiteRule } from '../../core/sites';
import { send } from '../../shared/api';

export async function editSiteRule(site: string, edit: (rule: SiteRule) => SiteRule): Promise<SitePrefs> {
  const prefs = await send('sites:get', {});
  // A rule that says nothing is dropped by the background's validation.
  return send('sites:set', { sites: { [site]: edit(prefs.sites[site] ?? {}) } });
}

/** A panel's copy of the rules, changed through an update. */
type SetPrefs = (update: (prefs: SitePrefs | undefined) => SitePrefs | undefined) => void;

/**
 * A change to the rules, shown at once: the panel's copy takes it (`show`) before the worker
 * answers (the panel's boxes are controlled by the copy, so a box the user clicked snapped back
 * until then, and a second click in that time was lost), then the rules `store` returns. If
 * storing fails, the stored rules are read back, so the panel shows what holds, and `failed` says
 * why.
 */
function shown(show: (prefs: SitePrefs) => SitePrefs, store: () => Promise<SitePrefs>, setPrefs: SetPrefs, failed: (message: string) => void): void {
  setPrefs((prefs) => prefs && show(prefs));
  store().then(
    (stored) => setPrefs(() => stored),
    (e: unknown) => {
      failed(e instanceof Error ? e.message : String(e));
      send('sites:get', {}).then((stored) => setPrefs(() => stored), () => undefined);
    },
  );
}

/** `sites:set` of `patch`, shown at once as the worker applies it (`applySitePatch`). */
export function shownChange(patch: SitePatch, setPrefs: SetPrefs, failed: (message: string) => void): void {
  shown((prefs) => applySitePatch(prefs, patch), () => send('sites:set', patch), setPrefs, failed);
}

/** `editSiteRule`, shown at once. */
export function shownEdit(site: string, edit: (rule: SiteRule) => SiteRule, setPrefs: SetPrefs, failed: (message: string) => void): void {
  shown((prefs) => applySitePatch(prefs, { sites: { [site]: edit(prefs.sites[site] ?? {}) } }), () => editSiteRule(site, edit), setPrefs, failed);
}
