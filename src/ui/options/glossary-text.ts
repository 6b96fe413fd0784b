/** Glossary terms as the options page edits them: one `source = target` pair per line. */

export function termsToText(terms: Record<string, string>): string {
  return Object.entries(terms)
    .map(([from, to]) => `${from} = ${to}`)
    .join('\n');
}

/** Lines without `=` or with an empty side are left out (the settings check would refuse them). */
export function textToTerms(text: string): Record<string, string> {
  const terms: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at < 0) continue;
    const from = line.slice(0, at).trim();
    const to = line.slice(at + 1).trim();
    if (from && to) terms[from] = to;
  }
  return terms;
}
