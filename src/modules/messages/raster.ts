/**
 * Drawing the quick report's bar chart into an RGB buffer, without a browser or a font library:
 * rectangles, and digits in a 3x5 pixel font scaled up (the chart's only text is numbers: hours,
 * days of the month, the scale). The words around it are in the e-mail's HTML.
 */
import { encodePng } from "./png.js";

export type Rgb = readonly [number, number, number];

const DIGITS: Record<string, string[]> = {
  "0": ["111", "101", "101", "101", "111"],
  "1": ["010", "110", "010", "010", "111"],
  "2": ["111", "001", "111", "100", "111"],
  "3": ["111", "001", "111", "001", "111"],
  "4": ["101", "101", "111", "001", "001"],
  "5": ["111", "100", "111", "001", "111"],
  "6": ["111", "100", "111", "101", "111"],
  "7": ["111", "001", "010", "010", "010"],
  "8": ["111", "101", "111", "101", "111"],
  "9": ["111", "101", "111", "001", "111"],
  "-": ["000", "000", "111", "000", "000"],
};

export class Raster {
  readonly pixels: Buffer;

  constructor(
    readonly width: number,
    readonly height: number,
    background: Rgb,
  ) {
    this.pixels = Buffer.alloc(width * height * 3);
    this.rect(0, 0, width, height, background);
  }

  rect(x: number, y: number, w: number, h: number, c: Rgb): void {
    const x0 = Math.max(0, Math.round(x));
    const y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(this.width, Math.round(x + w));
    const y1 = Math.min(this.height, Math.round(y + h));
    for (let yy = y0; yy < y1; yy++) {
      for (let xx = x0; xx < x1; xx++) {
        const i = (yy * this.width + xx) * 3;
        this.pixels[i] = c[0];
        this.pixels[i + 1] = c[1];
        this.pixels[i + 2] = c[2];
      }
    }
  }

  /** Digits (and "-") with their top left at x, y; `scale` pixels a font pixel. Returns the width drawn. */
  text(x: number, y: number, s: string, c: Rgb, scale = 2): number {
    let cx = x;
    for (const ch of s) {
      const glyph = DIGITS[ch];
      for (let gy = 0; gy < (glyph?.length ?? 0); gy++) {
        for (let gx = 0; gx < 3; gx++) if (glyph[gy][gx] === "1") this.rect(cx + gx * scale, y + gy * scale, scale, scale, c);
      }
      cx += 4 * scale;
    }
    return cx - x - scale;
  }

  png(): Buffer {
    return encodePng(this.width, this.height, this.pixels);
  }
}

export const textWidth = (s: string, scale = 2) => s.length * 4 * scale - scale;

export interface BarChart {
  labels: string[];
  /** Shown dark. */
  current: number[];
  /** Shown light, beside each dark bar. */
  before: number[];
  /** Every how many labels one is written under the axis. */
  labelEvery: number;
}

const INK: Rgb = [31, 41, 51];
const CURRENT: Rgb = [37, 99, 235];
const BEFORE: Rgb = [166, 190, 241];
const GRID: Rgb = [221, 226, 232];

/** Grouped bars (current beside before) over a labelled axis, with the scale's top value at the left: a PNG. */
export function barChartPng(chart: BarChart, width = 600, height = 220): Buffer {
  const r = new Raster(width, height, [255, 255, 255]);
  const max = Math.max(1, ...chart.current, ...chart.before);
  const top = Math.ceil(max / 5) * 5;
  const left = textWidth(String(top)) + 10;
  const bottom = 22;
  const plotW = width - left - 8;
  const plotH = height - bottom - 10;
  const y0 = 10 + plotH;
  for (let i = 0; i <= 4; i++) r.rect(left, 10 + (plotH * i) / 4, plotW, 1, GRID);
  r.text(2, 8, String(top), INK);
  r.text(2, y0 - 10, "0", INK);
  const n = chart.labels.length;
  const group = plotW / n;
  const bar = Math.max(1, Math.floor((group - 2) / 2));
  for (let i = 0; i < n; i++) {
    const gx = left + i * group + (group - 2 * bar) / 2;
    const h1 = Math.round((chart.current[i] / top) * plotH);
    const h0 = Math.round((chart.before[i] / top) * plotH);
    r.rect(gx, y0 - h1, bar, h1, CURRENT);
    r.rect(gx + bar, y0 - h0, bar, h0, BEFORE);
    if (i % chart.labelEvery === 0) r.text(left + i * group + group / 2 - textWidth(chart.labels[i]) / 2, y0 + 6, chart.labels[i], INK);
  }
  r.rect(left, y0, plotW, 1, INK);
  return r.png();
}
