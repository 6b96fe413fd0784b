/** bench/chart.svg: per workload, wall time against T* and the target, requests against ceil(C/B). */
import type { WorkloadResult } from './workload';

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export function chart(results: readonly WorkloadResult[]): string {
  const rowH = 46;
  const left = 250;
  const width = 900;
  const barW = 260;
  const height = 70 + rowH * results.length + 30;
  const maxS = Math.max(1, ...results.map((r) => Math.max(r.wall_s, 1.2 * r.bound_s + 0.5)));
  const maxQ = Math.max(1, ...results.map((r) => Math.max(r.requests, 1.1 * r.requests_bound)));
  const bar = (x: number, y: number, w: number, color: string, label: string) =>
    `<rect x="${x}" y="${y}" width="${Math.max(1, w).toFixed(1)}" height="12" fill="${color}"/><text x="${(x + w + 4).toFixed(1)}" y="${y + 10}" font-size="10">${esc(label)}</text>`;
  const rows = results.map((r, i) => {
    const y = 60 + i * rowH;
    const sx = (s: number) => (s / maxS) * barW;
    const qx = (q: number) => (q / maxQ) * barW;
    const s0 = left;
    const q0 = left + barW + 110;
    return [
      `<text x="8" y="${y + 18}" font-size="11">${esc(r.name.replace(/^(trafilatura|readability|postlight)-/, ''))} (${Math.round(r.chars / 1000)}k chars)</text>`,
      bar(s0, y, sx(r.wall_s), '#3b7dd8', `${r.wall_s.toFixed(2)} s`),
      bar(s0, y + 15, sx(r.bound_s), '#9bbce8', `T* ${r.bound_s.toFixed(2)} s`),
      `<line x1="${(s0 + sx(1.2 * r.bound_s + 0.5)).toFixed(1)}" x2="${(s0 + sx(1.2 * r.bound_s + 0.5)).toFixed(1)}" y1="${y - 2}" y2="${y + 29}" stroke="#c0392b" stroke-dasharray="3,2"/>`,
      bar(q0, y, qx(r.requests), '#2e9e5b', `${r.requests} req`),
      bar(q0, y + 15, qx(r.requests_bound), '#9fd5b3', `ceil(C/B) ${r.requests_bound}`),
      `<line x1="${(q0 + qx(1.1 * r.requests_bound)).toFixed(1)}" x2="${(q0 + qx(1.1 * r.requests_bound)).toFixed(1)}" y1="${y - 2}" y2="${y + 29}" stroke="#c0392b" stroke-dasharray="3,2"/>`,
    ].join('');
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
<text x="8" y="22" font-size="14" font-weight="bold">npm run bench: page workloads against a fake provider</text>
<text x="${left}" y="44" font-size="11">wall time vs T* = ceil(C/(B*K))*L (dashed: 1.2*T*+0.5 s)</text>
<text x="${left + barW + 110}" y="44" font-size="11">provider requests vs ceil(C/B) (dashed: 1.1x)</text>
${rows.join('\n')}
</svg>
`;
}
