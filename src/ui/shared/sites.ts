/**
 * Editing one site's rule from the popup. Each panel (page bar, "This site") holds its own copy
 * of the rules, so a rule is changed from its stored value, never from a panel's copy: a change
 * in one panel cannot undo the other's.
 */
import type { SitePrefs, SiteRule } from '../../core/sites';
import { send } from '../../shared/api';

export async function editSiteRule(site: string, edit: (rule: SiteRule) => SiteRule): Promise<SitePrefs> {
  const prefs = await send('sites:get', {});
  // A rule that says nothing is dropped by the background's validation.
  return send('sites:set', { sites: { [site]: edit(prefs.sites[site] ?? {}) } });
}
