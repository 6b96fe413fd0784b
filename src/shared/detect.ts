/**
 * The browser's language detector (`i18n.detectLanguage`: CLD in Chromium, Firefox's own), for the
 * page's language, the selection bubble and the popup's "Detect language". It runs in the browser,
 * so no text leaves it to be detected.
 */
import { ext, type Browser } from './browser';

type Detector = Pick<Browser['i18n'], 'detectLanguage'>;

/** What the detector read: its likeliest language (`fr`, `zh-TW`), and whether it calls the reading reliable. */
export interface Reading {
  language: string;
  sure: boolean;
}

/**
 * The detector's reading of `text`, or undefined when it reads no language (`und`) or there is no
 * detector. CLD calls a sentence's reading reliable, not that of "Buenos días a todos" (Galician).
 */
export async function readLanguage(text: string, i18n: () => Detector = () => ext().i18n): Promise<Reading | undefined> {
  try {
    const found = await i18n().detectLanguage(text);
    const best = [...found.languages].sort((a, b) => b.percentage - a.percentage)[0]?.language;
    return best && best !== 'und' ? { language: best, sure: found.isReliable } : undefined;
  } catch {
    // No detector here, or nothing it can read.
    return undefined;
  }
}

/** `readLanguage`'s language, sure or not. */
export async function detectWithBrowser(text: string, i18n: () => Detector = () => ext().i18n): Promise<string | undefined> {
  return (await readLanguage(text, i18n))?.language;
}
