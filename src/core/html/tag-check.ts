/**
 * Whether a provider's HTML answer misread the placeholder tags it was sent as words. Translators
 * move, drop and repeat tags, and some add markup of their own; the rebuild (rebuild.ts) handles
 * all of that. A placeholder whose tag or attribute name came back changed is another thing: the
 * provider translated the markup. Apertium APy, answering several requests at once, turned
 * `<span id="44">` into `<span Allez="44">` (the Spanish verb "id"), `<span id="35">` into
 * `<Giró id="35">` ("span" as the verb), `<a id="34">` into `<Un id="34">` (the article) and a
 * `<span id="23">` into `<de Tipo id="23">`.
 */

const START_TAG = /<([A-Za-z][^\s/>]*)([^>]*)>/g;
/**
 * A placeholder's one attribute, as sent and as a misreading keeps it, maybe among words with no
 * value: `id="44"`, `Allez="44"`, `Tipo id="23"`.
 */
const ONE_ATTR = /^(?:\s+[^\s=/>"']+)*\s+([^\s=/>"']+)="(\d+)"(?:\s+[^\s=/>"']+)*\s*\/?\s*$/;

/** Tag name of each placeholder id sent (`<span id="44">`: 44 -> span). */
function placeholders(markup: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of markup.matchAll(START_TAG)) {
    const a = ONE_ATTR.exec(m[2]!);
    if (a && a[1]!.toLowerCase() === 'id') out.set(a[2]!, m[1]!.toLowerCase());
  }
  return out;
}

/**
 * The answer has a tag like a placeholder (one attribute with a sent id in double quotes, maybe
 * words with no value beside it) under another tag name or attribute name. Markup of a
 * translator's own (`<b>`, `<img src=1>`, a hostile `<a i=3 href=…>`) is not a misreading.
 */
export function misreadsTags(sent: string, answer: string): boolean {
  if (!answer.includes('<')) return false;
  let ids: Map<string, string> | undefined;
  for (const m of answer.matchAll(START_TAG)) {
    const a = ONE_ATTR.exec(m[2]!);
    if (!a) continue;
    ids ??= placeholders(sent);
    const name = ids.get(a[2]!);
    if (name !== undefined && (a[1]!.toLowerCase() !== 'id' || name !== m[1]!.toLowerCase())) return true;
  }
  return false;
}
