/**
 * The hostile provider outputs of issue 7 (26 payloads): `<script>`, on* handlers, `javascript:`/
 * `data:` URLs, svg onload, img onerror, style, iframe, template, attribute breakouts, unknown and
 * duplicated ids, mXSS strings. `run` is the script each payload tries to run; the DOM tests use
 * the global + attribute canary, the Chromium tests add a fetch to a canary URL of their server.
 */

/** The default canary: a global and an attribute on <html> (document.title is page text). */
export const CANARY_SCRIPT = 'window.__pwned=1;document.documentElement.setAttribute("data-pwned","1")';

export function hostilePayloads(run: string = CANARY_SCRIPT): readonly string[] {
  const P = run;
  return [
    `<script>${P}</script>`,
    `<img src=x onerror='${P}'>`,
    `<svg onload='${P}'><circle r=1></circle></svg>`,
    `<a href="javascript:${P}">click</a>`,
    `<a href="data:text/html,<script>${P}</script>">data</a>`,
    `<iframe src="javascript:${P}"></iframe>`,
    `<iframe srcdoc="<script>parent.${P}</script>"></iframe>`,
    `<style>body{background:url("javascript:${P}")}</style>`,
    `<template><img src=x onerror='${P}'></template>`,
    `"><b onclick='${P}'>breakout</b>`,
    `' onmouseover='${P}' x='`,
    `<b i=999 onclick='${P}'>unknown id</b>`,
    `<a i=3 href="javascript:${P}">duplicated id</a><a i=3>again</a>`,
    `<p i=2 style="background:url(javascript:x)" onclick='${P}'>wrapper with handlers</p>`,
    `<noscript><p title="</noscript><img src=x onerror='${P}'>"></noscript>`,
    `<math><mtext><table><mglyph><style><img src=x onerror='${P}'></style></mglyph></table></mtext></math>`,
    `<svg></p><style><a id="</style><img src=1 onerror='${P}'>">`,
    `<form><math><mtext></form><form><mglyph><style></math><img src onerror='${P}'>`,
    `<!--><img src=x onerror='${P}'>-->`,
    `<object data="javascript:${P}"></object><embed src="javascript:${P}">`,
    `<meta http-equiv="refresh" content="0;url=javascript:${P}"><base href="javascript:/">`,
    `<input autofocus onfocus='${P}'><button formaction="javascript:${P}">x</button>`,
    `<details open ontoggle='${P}'><summary>x</summary></details>`,
    `<video><source onerror='${P}'></video><audio src=x onerror='${P}'></audio>`,
    `<body onload='${P}'><link rel=stylesheet href="javascript:${P}">`,
    `&lt;script&gt;${P}&lt;/script&gt;<scr<script>ipt>${P}</script>`,
  ];
}

export const PAYLOADS: readonly string[] = hostilePayloads();
