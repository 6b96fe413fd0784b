/**
 * Editing one site's rule from the popup. Each panel (page bar, "This site") holds its own copy
 * of the rules, so a rule is changed from its stored value, never from a panel's copy: a change
 * in one panel cannot undo the other's. The panel's copy shows the change at once (`shownEdit`).
 */
import type { SitePrefs, SiteRule } from '../../core/sites';
import { send } from '../../shared/api';

export async function editSiteRule(site: string, edit: (rule: SiteRule) => SiteRule): Promise<SitePrefs> {
  const prefs = await send('sites:get', {});
  // A rule that says nothing is dropped by the background's validation.
  return send('sites:set', { sites: { [site]: edit(prefs.sites[site] ?? {}) } });
}

/**
 * `editSiteRule`, shown at once: the panel's copy takes the edit before the worker answers (its
 * boxes are controlled by the copy, so a box the user clicks snapped back until then, and a second
 * click in that time was lost), then the stored rules. If storing fails, the stored rules are read
 * back, so the panel shows what holds, and `failed` says why.
 */
export function shownEdit(
  site: string,
  edit: (rule: SiteRule) => SiteRule,
  setPrefs: (update: (prefs: SitePrefs | undefined) => SitePrefs | undefined) => void,
  failed: (message: string) => void,
): void {
  setPrefs((prefs) => prefs && { ...prefs, sites: { ...prefs.sites, [site]: edit(prefs.sites[site] ?? {}) } });
  editSiteRule(site, edit).then(
    (stored) => setPrefs(() => stored),
    (e: unknown) => {
      failed(e instanceof Error ? e.message : String(e));
      send('sites:get', {}).then((stored) => setPrefs(() => stored), () => undefined);
    },
  );
}
