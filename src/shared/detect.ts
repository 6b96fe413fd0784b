/**
 * The browser's language detector (`i18n.detectLanguage`: CLD in Chromium, Firefox's own), for the
 * page's language, the selection bubble and the popup's "Detect language". It runs in the browser,
 * so no text leaves it to be detected.
 */
import { ext, type Browser } from './browser';

type Detector = Pick<Browser['i18n'], 'detectLanguage'>;

/**
 * The likeliest language of `text` as the detector names it (`fr`, `zh-TW`), or undefined when it
 * reads none (`und`) or there is no detector; with `sure`, only when the detector calls its reading
 * reliable (CLD says so of a sentence, not of "Buenos días a todos", which it reads as Galician).
 */
export async function detectWithBrowser(text: string, i18n: () => Detector = () => ext().i18n, sure = false): Promise<string | undefined> {
  try {
    const found = await i18n().detectLanguage(text);
    if (sure && !found.isReliable) return undefined;
    const best = [...found.languages].sort((a, b) => b.percentage - a.percentage)[0]?.language;
    return best && best !== 'und' ? best : undefined;
  } catch {
    // No detector here, or nothing it can read.
    return undefined;
  }
}
