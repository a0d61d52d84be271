// Contrast of every text in the viewer against what it is drawn on (the High Contrast tests of the tree and the detail pane).

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

/**
 * Every text in the viewer whose colour is too close to the background it is drawn on (contrast ratio below
 * `min`), as "selector-ish: text (ratio)": runs in the page, compositing each ancestor's background colour.
 */
export function lowContrast(min: number): string[] {
  const d = (globalThis as Any).document;
  const w = globalThis as Any;
  const parse = (c: string): [number, number, number, number] => {
    const m = /rgba?\(([^)]+)\)/.exec(c);
    if (!m) return [0, 0, 0, 0];
    const p = m[1].split(/[,\s/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top: number[], below: number[]): number[] => [0, 1, 2].map((k) => top[k] * top[3] + below[k] * (1 - top[3])).concat(1);
  const background = (e: Any): number[] => {
    const layers: number[][] = [];
    for (let n = e; n && n.nodeType === 1; n = n.parentElement) layers.push(parse(w.getComputedStyle(n).backgroundColor));
    let bg = [255, 255, 255, 1];
    for (let k = layers.length - 1; k >= 0; k--) if (layers[k][3] > 0) bg = over(layers[k], bg);
    return bg;
  };
  const lum = (c: number[]) => {
    const f = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const out: string[] = [];
  for (const e of Array.from(d.querySelectorAll('.top *, .tree-pane *, .detail-slot *')) as Any[]) {
    const own = Array.from(e.childNodes as Any[]).some((n: Any) => n.nodeType === 3 && n.textContent.trim() !== '');
    if (!own || e.closest('[hidden]') || e.getClientRects().length === 0) continue;
    const st = w.getComputedStyle(e);
    if (st.visibility === 'hidden' || Number(st.opacity) < 0.5) continue;
    const bg = background(e);
    const fg = over(parse(st.color), bg);
    const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < min) out.push(`${e.tagName.toLowerCase()}.${String(e.className).split(' ')[0]}: ${e.textContent.trim().slice(0, 30)} (${ratio.toFixed(2)})`);
  }
  return out;
}
