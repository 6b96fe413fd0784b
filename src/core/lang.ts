/**
 * Language codes: BCP 47 canonical forms (decisions.md "Parameters": matched case-insensitively,
 * canonicalized). The guess of a text's language is detect.ts.
 */

/** Longest tag we accept: enough for language-script-region-variant, short enough to echo safely. */
const MAX_TAG_LENGTH = 35;

/** Codes that are valid BCP 47 but name no language (undetermined, multiple, none, missing). */
const NOT_A_LANGUAGE = new Set(['und', 'mul', 'zxx', 'mis']);

/**
 * The canonical BCP 47 form of a language tag (`eng` -> `en`, `iw` -> `he`, `zh-hans` -> `zh-Hans`),
 * or undefined when it is malformed or more than language[-script][-region][-variant]: extensions,
 * private use and grandfathered tags are not language codes a translator can use.
 */
/** Codes already seen (every call checks its src and trg; Intl is slow): bounded, oldest out. */
const canonicalSeen = new Map<string, string | undefined>();
const CANONICAL_SEEN_MAX = 1024;

export function canonicalLanguage(code: string): string | undefined {
  if (canonicalSeen.has(code)) return canonicalSeen.get(code);
  const canonical = canonicalUncached(code);
  if (canonicalSeen.size >= CANONICAL_SEEN_MAX) canonicalSeen.delete(canonicalSeen.keys().next().value!);
  canonicalSeen.set(code, canonical);
  return canonical;
}

function canonicalUncached(code: string): string | undefined {
  if (code.length === 0 || code.length > MAX_TAG_LENGTH) return undefined;
  // Only letters, digits and separators: Intl accepts nothing else anyway, but this keeps
  // whitespace and `*` from ever reaching it.
  if (!/^[A-Za-z0-9_-]+$/.test(code)) return undefined;
  let canonical: string;
  try {
    const [first] = Intl.getCanonicalLocales(code.replaceAll('_', '-'));
    if (first === undefined) return undefined;
    canonical = first;
  } catch {
    return undefined;
  }
  const locale = new Intl.Locale(canonical);
  if (locale.baseName !== canonical) return undefined;
  if (!/^[a-z]{2,3}$/.test(locale.language) || NOT_A_LANGUAGE.has(locale.language)) return undefined;
  return canonical;
}

/**
 * Languages a provider may list under either code, for one key: Norwegian Bokmål (`nb`, a page's
 * usual label) is Google's and Yandex's `no`. (Filipino's `tl` and `fil` are one already to Intl's
 * likely subtags.)
 */
const ONE_LANGUAGE: Record<string, string> = { nb: 'no' };

/**
 * Languages whose likely subtags name one script whatever the region (`en-IN` is Latin as `en`
 * is; not `pa`, whose `pa-PK` is Arabic, nor `zh`, `sr`, `uz`, `az`, `ms`...), by that script, as
 * Intl reads them (test/unit/interface/lang.test.ts checks each against Intl for every region).
 * A tag of one of these, alone or with a region, is read here: a page's first
 * `Intl.Locale#maximize` loads the likely subtags' data, 18–46 ms in a Chromium tab, and came on a
 * trigger's path (the page's language and the target's are read before its first call).
 */
export const ONE_SCRIPT: ReadonlyMap<string, string> = new Map<string, string>(
  Object.entries({
    Latn:
      'aa af ak an ay bi bm br bs ca ch co cs cy da de ee en eo es et eu ff fi fj fo fr fy ga gd gl gn gv ho hr ht hu hz ' +
      'ia id ie ig ik io is it jv kg ki kj kl kr kw la lb lg li ln lt lu lv mg mh mi mt na nb nd ng nl nn no nr nv ny oc om ' +
      'pl pt qu rm rn ro rw sc se sg sk sl sm sn so sq ss st su sv sw tk tn to tr ts ty ve vi vo wa wo xh yo za zu',
    Cyrl: 'ab av ba be bg ce cu cv kv mk os ru tt uk',
    Arab: 'ar fa ks ps ur',
    Deva: 'hi mr ne sa',
    Cans: 'cr iu oj',
    Ethi: 'am ti',
    Beng: 'as bn',
    Tibt: 'bo dz',
    Hebr: 'he yi',
    Avst: 'ae', Thaa: 'dv', Grek: 'el', Gujr: 'gu', Armn: 'hy', Yiii: 'ii', Jpan: 'ja', Geor: 'ka', Khmr: 'km', Knda: 'kn',
    Kore: 'ko', Laoo: 'lo', Mlym: 'ml', Mymr: 'my', Orya: 'or', Sinh: 'si', Taml: 'ta', Telu: 'te', Thai: 'th',
  }).flatMap(([script, languages]) => languages.split(' ').map((language) => [language, script] as const)),
);

/** A canonical tag that is a language alone or with a region (`en`, `en-GB`, `es-419`): its language. */
const LANGUAGE_REGION = /^([a-z]{2,3})(?:-(?:[A-Z]{2}|\d{3}))?$/;

/** The likely-subtag reading of a canonical tag: its language and script (`zh-TW`: zh, Hant; `sr`: sr, Cyrl). */
function likely(canonical: string): { language: string; script: string | undefined } {
  const language = LANGUAGE_REGION.exec(canonical)?.[1];
  const script = language && ONE_SCRIPT.get(language);
  if (language && script) return { language: ONE_LANGUAGE[language] ?? language, script };
  const max = new Intl.Locale(canonical).maximize();
  return { language: ONE_LANGUAGE[max.language] ?? max.language, script: max.script };
}

/** The script a language is written in when its tag names none (`zh`: Hans, `sr`: Cyrl). */
const usualScripts = new Map<string, string | undefined>();
function usualScript(language: string): string | undefined {
  const known = ONE_SCRIPT.get(language);
  if (known) return known;
  if (!usualScripts.has(language)) usualScripts.set(language, new Intl.Locale(language).maximize().script);
  return usualScripts.get(language);
}

/** `languageOf`'s answers, each tag read once (bounded as `canonicalSeen` is). */
const languagesSeen = new Map<string, string>();

/**
 * What a translation has to cross for a tag: its language, and its script where that is not the
 * language's usual one (`zh-TW` and `zh-Hant`: `zh-Hant`; `zh-CN`, `zh` and `zh-Hans`: `zh`;
 * `sr-Latn`: `sr-Latn`; `en-GB` and `en`: `en`; `pt-BR`: `pt`), or undefined for a code that is
 * not a language. A page labelled `zh-TW` is in another language than a reader's `zh-Hans` (a
 * translator turns one script into the other), while `en-GB` is not another than `en`.
 */
export function languageOf(tag: string): string | undefined {
  const canonical = canonicalLanguage(tag);
  if (canonical === undefined) return undefined;
  // A list of a hundred codes is read for each tag resolved (`listedCode`): each read once.
  if (languagesSeen.has(canonical)) return languagesSeen.get(canonical);
  const { language, script } = likely(canonical);
  const key = script !== undefined && script !== usualScript(language) ? `${language}-${script}` : language;
  if (languagesSeen.size >= CANONICAL_SEEN_MAX) languagesSeen.delete(languagesSeen.keys().next().value!);
  languagesSeen.set(canonical, key);
  return key;
}

/** Whether two tags are one language for translation (`languageOf`): `en-GB` and `en`, `zh-TW` and `zh-Hant`, `nb` and `no`; not `zh-TW` and `zh`. */
export function sameLanguage(a: string, b: string): boolean {
  const x = languageOf(a);
  return x !== undefined && x === languageOf(b);
}

/**
 * The code of `codes` (an engine's or a provider's language list) that stands for `tag`: the same
 * code, else the first of the same language and script (`languageOf`: a page's `zh` or `zh-CN` is
 * a list's `zh-Hans`, its `zh-TW` the list's `zh-Hant`, its `nb` the list's `no`). With
 * `anyScript` (a source: a translator reads a script it does not list for the language better than
 * no route at all), else the first of the same language. Undefined where the list has none: a
 * target in another script is not the one asked for.
 *
 * A tag without a script whose likely script the list names with its language (`zh`, where it
 * has `zh-Hans`; `zh-TW`, where it has `zh-Hant`) is that code even where the list has the tag
 * too: Google, Microsoft, LibreTranslate and MyMemory list Chinese by script, Chrome's on-device
 * translator and LLMs as `zh`. The engine's routes are by language (routes/codes.ts), so either
 * code has the routes of both; the one most providers list reads best in a reader's list.
 */
export function listedCode(tag: string, codes: readonly string[], anyScript = false): string | undefined {
  const canonical = canonicalLanguage(tag);
  if (canonical === undefined) return undefined;
  const locale = new Intl.Locale(canonical);
  if (locale.script === undefined) {
    const { script } = likely(canonical);
    const named = script && canonicalLanguage(`${locale.language}-${script}`);
    if (named && codes.includes(named)) return named;
  }
  if (codes.includes(canonical)) return canonical;
  const key = languageOf(canonical);
  const found = codes.find((c) => languageOf(c) === key);
  if (found !== undefined || !anyScript) return found;
  const { language } = likely(canonical);
  return codes.find((c) => {
    const other = canonicalLanguage(c);
    return other !== undefined && likely(other).language === language;
  });
}
