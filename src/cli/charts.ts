/**
 * Node only: the run's charts as files. The charts are drawn by the page's own module
 * (src/charts/plots.ts) in a DOM implementation (linkedom), saved as SVG, and rasterised to PNG
 * with resvg using the DejaVu Sans font shipped in node_modules (dejavu-fonts-ttf), so the text
 * renders the same on a machine with no fonts installed.
 */
import { createRequire } from 'node:module';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ChartData } from '../charts/data';
import { CHART_NAMES, renderChart, svgMarkup, type ChartName } from '../charts/plots';

const require = createRequire(import.meta.url);

/** The bundled font files (regular and bold). */
export function fontFiles(): string[] {
  const dir = join(dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
  return [join(dir, 'DejaVuSans.ttf'), join(dir, 'DejaVuSans-Bold.ttf')];
}

// Loaded on first use, so a run without --charts never loads the DOM or the native renderer.
export async function chartSvg(name: ChartName, data: ChartData): Promise<string> {
  const { parseHTML } = await import('linkedom');
  const { document } = parseHTML('<!doctype html><html><head></head><body></body></html>');
  return svgMarkup(renderChart(name, data, { document: document as unknown as Document }));
}

export async function svgToPng(svg: string, scale = 2): Promise<Buffer> {
  const { Resvg } = await import('@resvg/resvg-js');
  const resvg = new Resvg(svg, {
    background: 'white',
    fitTo: { mode: 'zoom', value: scale },
    font: { fontFiles: fontFiles(), loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
  });
  return resvg.render().asPng();
}

/** Writes <dir>/<chart>.svg and .png for every chart; returns the paths written. */
export async function writeCharts(dir: string, data: ChartData): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const name of CHART_NAMES) {
    const svg = await chartSvg(name, data);
    const svgPath = join(dir, `${name}.svg`);
    const pngPath = join(dir, `${name}.png`);
    await writeFile(svgPath, svg);
    await writeFile(pngPath, await svgToPng(svg));
    written.push(svgPath, pngPath);
  }
  return written;
}
