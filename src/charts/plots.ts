/**
 * The four charts of a run, drawn with Observable Plot from ChartData: per-language Pass@1 bars
 * with the overall line, the difficulty split, the refinement curve (Pass@1 after each turn) and
 * the pass@k curve, each figure with its 95% interval as an error bar. One module for the page (the real `document`) and the CLI (a DOM
 * implementation, see src/cli/charts.ts). Each chart is one standalone <svg> with its title
 * drawn inside, so it can be saved as is or rasterised to PNG.
 */
import * as Plot from '@observablehq/plot';
import type { ChartData } from './data';

export type ChartName = 'languages' | 'difficulty' | 'refinement' | 'passk';
export const CHART_NAMES: readonly ChartName[] = ['languages', 'difficulty', 'refinement', 'passk'];
export const CHART_TITLES: Record<ChartName, string> = {
  languages: 'Pass@1 per language (line: overall)',
  difficulty: 'Pass@1 per difficulty',
  refinement: 'Pass@1 after each refinement turn',
  passk: 'pass@k',
};

export const CHART_FONT = 'DejaVu Sans, Verdana, Arial, sans-serif';
const SVG_NS = 'http://www.w3.org/2000/svg';
const TITLE_HEIGHT = 34;
const BAR = '#4e79a7';
const LINE = '#e15759';

export interface RenderOptions {
  /** Defaults to the global document (the page). */
  document?: Document;
  width?: number;
  height?: number;
}

/**
 * One y scale for every chart: 0–100 % over a frame of the same height (the plot's height less
 * these margins), so two charts side by side read alike. A chart that needs more room below
 * (turned language names) grows taller instead of squeezing its frame.
 */
export const Y_DOMAIN: readonly [number, number] = [0, 100];
const MARGIN_TOP = 24;
const MARGIN_BOTTOM = 44;

const pct = (v: number) => (Number.isNaN(v) ? '–' : `${(v * 100).toFixed(1)}%`);
const finite = <T extends { v: number }>(rows: T[]) => rows.filter((r) => !Number.isNaN(r.v));
const ERROR_BAR = '#222';
/** Percent bounds of a 95% interval; a row without one gets a zero-length bar at its value. */
const bounds = (r: { low: number; high: number }, v: number) => ({ lo: Number.isNaN(r.low) ? v : r.low * 100, hi: Number.isNaN(r.high) ? v : r.high * 100 });

function plotOf(name: ChartName, data: ChartData, width: number, height: number, document: Document): Element {
  const common = {
    document,
    width,
    height,
    marginTop: MARGIN_TOP,
    marginBottom: MARGIN_BOTTOM,
    marginLeft: 52,
    style: { fontFamily: CHART_FONT, fontSize: '12px', background: 'white', color: '#222' },
    y: { domain: [...Y_DOMAIN], label: '%', grid: true },
  };
  if (name === 'languages') {
    const rows = finite(data.languages.map((l) => ({ ...l, v: l.pass1 * 100, ...bounds(l, l.pass1 * 100) })));
    // Narrow bars (a phone, many languages): shorter value labels, then none (the data table has
    // them), and names turned upright, rather than text under 11 px or labels on top of each other.
    const band = (width - 52 - 20) / Math.max(1, rows.length);
    const label = (d: (typeof rows)[number]) => (band >= 90 ? `${pct(d.pass1)} (${d.passed}/${d.total})` : pct(d.pass1));
    const turned = band < 60;
    const marks: Plot.Markish[] = [
      Plot.barY(rows, { x: 'label', y: 'v', fill: BAR }),
      Plot.ruleX(rows, { x: 'label', y1: 'lo', y2: 'hi', stroke: ERROR_BAR, strokeWidth: 1.5 }),
      Plot.tickY(rows, { x: 'label', y: 'lo', stroke: ERROR_BAR, inset: 14 }),
      Plot.tickY(rows, { x: 'label', y: 'hi', stroke: ERROR_BAR, inset: 14 }),
      ...(band >= 48 ? [Plot.text(rows, { x: 'label', y: 'hi', text: label, dy: -8, fontSize: 11, stroke: 'white', strokeWidth: 3, fill: '#222' })] : []),
      Plot.ruleY([0]),
    ];
    if (!Number.isNaN(data.overall)) {
      marks.push(Plot.ruleY([data.overall * 100], { stroke: LINE, strokeWidth: 2, strokeDasharray: '6,4' }));
      // Named above the frame, at the right, clear of the bars and their labels.
      marks.push(Plot.text([`– – overall ${pct(data.overall)}`], { frameAnchor: 'top-right', dy: -14, fill: LINE, fontSize: 11, fontWeight: 'bold' }));
    }
    const x = { label: null, domain: rows.map((r) => r.label), padding: 0.3, ...(turned ? { tickRotate: -90 } : {}) };
    // Turned names need 96 px below the frame: the chart grows by the difference, its frame does not shrink.
    const below = turned ? { marginBottom: 96, height: height + 96 - MARGIN_BOTTOM } : {};
    return Plot.plot({ ...common, ...below, x, marks }) as unknown as Element;
  }
  if (name === 'difficulty') {
    const rows = finite(data.difficulty.map((d) => ({ ...d, v: d.pass1 * 100, ...bounds(d, d.pass1 * 100) })));
    return Plot.plot({
      ...common,
      x: { label: null, domain: rows.map((r) => r.difficulty), padding: 0.35 },
      marks: [
        Plot.barY(rows, { x: 'difficulty', y: 'v', fill: BAR }),
        Plot.ruleX(rows, { x: 'difficulty', y1: 'lo', y2: 'hi', stroke: ERROR_BAR, strokeWidth: 1.5 }),
        Plot.tickY(rows, { x: 'difficulty', y: 'lo', stroke: ERROR_BAR, inset: 30 }),
        Plot.tickY(rows, { x: 'difficulty', y: 'hi', stroke: ERROR_BAR, inset: 30 }),
        Plot.text(rows, { x: 'difficulty', y: 'hi', text: (d: (typeof rows)[number]) => `${pct(d.pass1)} (${d.passed}/${d.total})`, dy: -8, fontSize: 11, stroke: 'white', strokeWidth: 3, fill: '#222' }),
        Plot.ruleY([0]),
      ],
    }) as unknown as Element;
  }
  const rows = name === 'refinement'
    ? finite(data.turns.map((t) => ({ x: t.turn, v: t.pass1 * 100, ...bounds(t, t.pass1 * 100) })))
    : finite(data.passk.map((p) => ({ x: p.k, v: p.value * 100, ...bounds(p, p.value * 100) })));
  const xs = rows.map((r) => r.x);
  const lo = Math.min(1, ...xs);
  const hi = Math.max(lo + 1, ...xs);
  return Plot.plot({
    ...common,
    marginLeft: 52,
    marginRight: 30,
    x: { label: name === 'refinement' ? 'turn' : 'k (samples drawn)', domain: [lo - 0.25, hi + 0.25], ticks: xs, tickFormat: 'd' },
    marks: [
      Plot.ruleX(rows, { x: 'x', y1: 'lo', y2: 'hi', stroke: LINE, strokeWidth: 1.5, strokeOpacity: 0.6 }),
      Plot.lineY(rows, { x: 'x', y: 'v', stroke: LINE, strokeWidth: 2 }),
      Plot.dot(rows, { x: 'x', y: 'v', fill: LINE, r: 4 }),
      Plot.text(rows, { x: 'x', y: 'v', text: (d: (typeof rows)[number]) => pct(d.v / 100), dx: 16, dy: -10, fontSize: 11, stroke: 'white', strokeWidth: 3, fill: '#222' }),
      Plot.ruleY([0]),
    ],
  }) as unknown as Element;
}

/** One chart as a standalone <svg> element (title inside). */
export function renderChart(name: ChartName, data: ChartData, options: RenderOptions = {}): SVGSVGElement {
  const document = options.document ?? globalThis.document;
  const width = options.width ?? (name === 'languages' ? Math.max(560, 90 * data.languages.length + 120) : 560);
  const height = options.height ?? 320;
  const plot = plotOf(name, data, width, height, document);
  // The plot's own height: taller than asked when it needs room below its frame.
  const plotHeight = Number(plot.getAttribute('height')) || height;
  const svg = document.createElementNS(SVG_NS, 'svg') as SVGSVGElement;
  svg.setAttribute('xmlns', SVG_NS);
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(plotHeight + TITLE_HEIGHT));
  svg.setAttribute('viewBox', `0 0 ${width} ${plotHeight + TITLE_HEIGHT}`);
  svg.setAttribute('font-family', CHART_FONT);
  const background = document.createElementNS(SVG_NS, 'rect');
  for (const [k, v] of Object.entries({ x: '0', y: '0', width: String(width), height: String(plotHeight + TITLE_HEIGHT), fill: 'white' })) background.setAttribute(k, v);
  svg.append(background);
  const title = document.createElementNS(SVG_NS, 'text');
  for (const [k, v] of Object.entries({ x: '12', y: '16', 'font-size': '14', 'font-weight': 'bold', fill: '#222' })) title.setAttribute(k, v);
  title.textContent = CHART_TITLES[name];
  const subtitle = document.createElementNS(SVG_NS, 'text');
  for (const [k, v] of Object.entries({ x: '12', y: '30', 'font-size': '11', fill: '#555' })) subtitle.setAttribute(k, v);
  subtitle.textContent = data.title;
  svg.append(title, subtitle);
  plot.setAttribute('x', '0');
  plot.setAttribute('y', String(TITLE_HEIGHT));
  // The outer <svg> carries the chart's name (role img); Plot's labelled groups inside are drawing only.
  plot.setAttribute('aria-hidden', 'true');
  svg.append(plot);
  return svg;
}

/** Standalone SVG text of a chart, for saving as a .svg file. */
export function svgMarkup(svg: SVGSVGElement): string {
  const text = svg.outerHTML;
  return `<?xml version="1.0" encoding="UTF-8"?>\n${text.includes('xmlns="http://www.w3.org/2000/svg"') ? text : text.replace('<svg', `<svg xmlns="${SVG_NS}"`)}\n`;
}
