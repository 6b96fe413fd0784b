/**
 * A highlighter as mark.js works, as a page script for the e2e tests: `__mark(word)` splits each
 * text of the body where the word is and wraps it in a `<mark>`; `__unmark()` takes the marks out
 * and joins the texts again (`normalize()`).
 */
export const HIGHLIGHTER_SCRIPT = `<script>
window.__mark = (word) => {
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const hits = [];
  for (let n = walk.nextNode(); n; n = walk.nextNode()) if (n.data.includes(word)) hits.push(n);
  for (let t of hits) {
    for (let at = t.data.indexOf(word); at >= 0; at = t.data.indexOf(word)) {
      const hit = t.splitText(at);
      t = hit.splitText(word.length);
      const m = document.createElement('mark');
      hit.before(m);
      m.append(hit);
    }
  }
};
window.__unmark = () => {
  for (const m of document.querySelectorAll('mark')) {
    const parent = m.parentNode;
    m.replaceWith(...m.childNodes);
    parent.normalize();
  }
};
</script>`;
