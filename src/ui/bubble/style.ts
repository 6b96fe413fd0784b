/**
 * The bubble's CSS, inside its closed shadow root: the host resets every inherited property
 * (`all: initial`), so page styles reach nothing, and the page's own dark/light choice is ignored
 * in favour of the user's prefers-color-scheme.
 */
/** The bubble's width in px (content/bubble.ts places it by this). */
export const BUBBLE_WIDTH = 352;

export const BUBBLE_CSS = `
:host { all: initial; position: absolute; z-index: 2147483647; zoom: var(--polyglot-zoom, 1); }
.bubble {
  --bg: #ffffff; --fg: #1f2328; --muted: #59636e; --border: #d1d9e0; --panel: #f6f8fa;
  --accent: #1f5fd6; --error: #b42318; --focus: #1f5fd6;
  box-sizing: border-box; width: ${BUBBLE_WIDTH}px; max-width: calc(100vw - 16px); max-height: var(--room, 60vh); overflow: auto;
  font: 14px/1.45 system-ui, -apple-system, 'Segoe UI', sans-serif; color: var(--fg); background: var(--bg);
  border: 1px solid var(--border); border-radius: 10px; box-shadow: 0 6px 24px rgba(0,0,0,.18);
  padding: 8px 10px; text-align: start;
}
@media (prefers-color-scheme: dark) {
  .bubble { --bg: #1f232a; --fg: #e6e8eb; --muted: #9aa4af; --border: #39404a; --panel: #16181d;
    --accent: #6e9bff; --error: #ff8b80; --focus: #8fb2ff; }
}
.bubble:focus { outline: none; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 1px; }
.head { display: flex; align-items: center; gap: 4px; margin-bottom: 6px; }
.head .spacer { flex: 1; }
select, button { font: inherit; font-size: 12px; color: var(--fg); background: var(--panel);
  border: 1px solid var(--border); border-radius: 6px; padding: 2px 6px; cursor: pointer; }
select { max-width: 8.5rem; }
button:hover { border-color: var(--accent); }
.main { font-size: 15px; margin: 2px 0 6px; white-space: pre-wrap; }
.alt { border-top: 1px solid var(--border); padding: 5px 0 3px; }
.alt-text { white-space: pre-wrap; }
.meta { display: flex; gap: 6px; align-items: center; color: var(--muted); font-size: 11px; }
.meta .rid { font-family: ui-monospace, Menlo, monospace; }
.meta .spacer { flex: 1; }
.err { color: var(--error); font-size: 12px; border-top: 1px solid var(--border); padding-top: 4px; }
.status { color: var(--muted); font-size: 12px; }
.foot { display: flex; justify-content: flex-end; gap: 6px; margin-top: 6px; }
.sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
/* Not printed (as content/overlay.ts's): a page printed with the bubble open prints the page. */
@media print { :host { display: none !important; } }
`;
