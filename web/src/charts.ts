/** Hand-drawn SVG charts: no library, nothing fetched, colours from CSS variables. */
import { h, s } from './dom.js';

export type Series = { label: string; value: number; extra?: number; title?: string };

/** Vertical bars over time (value: injections, extra: denials stacked on top). */
export function barChart(points: Series[], options: { label: string; height?: number }): HTMLElement {
  const width = 640;
  const height = options.height ?? 180;
  const pad = { left: 34, right: 8, top: 10, bottom: 24 };
  const max = Math.max(1, ...points.map((p) => p.value + (p.extra ?? 0)));
  const step = (width - pad.left - pad.right) / Math.max(1, points.length);
  const y = (v: number) => pad.top + (height - pad.top - pad.bottom) * (1 - v / max);
  const ticks = [0, Math.round(max / 2), max];
  const svg = s(
    'svg',
    { viewBox: `0 0 ${width} ${height}`, class: 'chart', role: 'img', 'aria-label': options.label },
    ticks.map((t) => [
      s('line', { x1: pad.left, x2: width - pad.right, y1: y(t), y2: y(t), class: 'grid' }),
      s('text', { x: pad.left - 6, y: y(t) + 4, class: 'tick', 'text-anchor': 'end' }, String(t)),
    ]),
    points.map((p, i) => {
      const x = pad.left + i * step + step * 0.15;
      const w = step * 0.7;
      const base = y(0);
      const top = y(p.value);
      const denied = y(p.value + (p.extra ?? 0));
      return s(
        'g',
        { class: 'bar-group' },
        s('title', {}, p.title ?? `${p.label}: ${p.value}`),
        s('rect', { x, y: top, width: w, height: Math.max(0, base - top), class: 'bar' }),
        (p.extra ?? 0) > 0
          ? s('rect', { x, y: denied, width: w, height: top - denied, class: 'bar alt' })
          : null,
        i % Math.ceil(points.length / 8) === 0
          ? s('text', { x: x + w / 2, y: height - 6, class: 'tick', 'text-anchor': 'middle' }, p.label)
          : null,
      );
    }),
  );
  return h('figure', { class: 'figure' }, svg as unknown as HTMLElement, h('figcaption', {}, options.label));
}

/** Horizontal bars with labels, for rankings (top lessons, sources). */
export function rankChart(
  rows: Series[],
  options: { label: string; onClick?: (index: number) => void },
): HTMLElement {
  const max = Math.max(1, ...rows.map((r) => r.value));
  return h(
    'figure',
    { class: 'figure' },
    rows.length === 0
      ? h('p', { class: 'muted' }, 'nothing yet')
      : h(
          'ol',
          { class: 'ranks' },
          rows.map((row, i) =>
            h(
              'li',
              {},
              h(
                options.onClick ? 'a' : 'span',
                {
                  class: 'rank-label',
                  title: row.title ?? row.label,
                  ...(options.onClick
                    ? {
                        href: '#',
                        onclick: (e: Event) => {
                          e.preventDefault();
                          options.onClick?.(i);
                        },
                      }
                    : {}),
                },
                row.label,
              ),
              h(
                'span',
                { class: 'rank-bar' },
                s(
                  'svg',
                  { viewBox: '0 0 100 10', preserveAspectRatio: 'none', class: 'rank-svg' },
                  s('rect', { x: 0, y: 0, width: (row.value / max) * 100, height: 10, class: 'bar' }),
                ) as unknown as HTMLElement,
              ),
              h('span', { class: 'rank-value' }, String(row.value)),
            ),
          ),
        ),
    h('figcaption', {}, options.label),
  );
}

/** A ring showing a ratio (helpful / all feedback). */
export function ratioRing(ratio: number | null, options: { label: string; detail: string }): HTMLElement {
  const r = 40;
  const c = 2 * Math.PI * r;
  const value = ratio ?? 0;
  return h(
    'figure',
    { class: 'figure ring' },
    s(
      'svg',
      { viewBox: '0 0 100 100', class: 'chart ring-svg', role: 'img', 'aria-label': options.label },
      s('circle', { cx: 50, cy: 50, r, class: 'ring-track' }),
      value <= 0
        ? null
        : s('circle', {
            cx: 50,
            cy: 50,
            r,
            class: 'ring-value',
            'stroke-dasharray': `${c * value} ${c}`,
            transform: 'rotate(-90 50 50)',
          }),
      s(
        'text',
        { x: 50, y: 55, 'text-anchor': 'middle', class: 'ring-text' },
        ratio === null ? '–' : `${Math.round(value * 100)}%`,
      ),
    ) as unknown as HTMLElement,
    h('figcaption', {}, options.label, h('br'), h('span', { class: 'muted' }, options.detail)),
  );
}
