import { inflateSync } from 'node:zlib';

/** What a PNG shows, in two figures: how many distinct colours, and the share of pixels not in the most common one. */
export interface PngContent {
  width: number;
  height: number;
  distinctColours: number;
  /** 0..1: the pixels that differ from the background (the most common colour). */
  foregroundShare: number;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
// Bytes per pixel of the 8-bit colour types a browser writes: greyscale, RGB, grey+alpha, RGBA.
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/**
 * Decodes an 8-bit, non-interlaced PNG (what a browser's screenshot is) far enough to tell a page
 * that rendered from a blank one: the scanlines are inflated and unfiltered, then the pixels counted.
 */
export function readPngContent(png: Buffer): PngContent {
  if (!png.subarray(0, 8).equals(SIGNATURE)) throw new Error('not a PNG');
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const data: Buffer[] = [];
  while (offset < png.length) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('latin1', offset + 4, offset + 8);
    const body = png.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = body.readUInt32BE(0);
      height = body.readUInt32BE(4);
      const bitDepth = body[8];
      channels = CHANNELS[body[9] ?? -1] ?? 0;
      if (bitDepth !== 8 || channels === 0 || body[12] !== 0) throw new Error('only 8-bit, non-interlaced PNGs without a palette are read');
    } else if (type === 'IDAT') data.push(body);
    offset += 12 + length;
  }
  const pixels = unfilter(inflateSync(Buffer.concat(data)), width, height, channels);
  const counts = new Map<string, number>();
  for (let index = 0; index < pixels.length; index += channels) {
    const colour = pixels.subarray(index, index + channels).toString('hex');
    counts.set(colour, (counts.get(colour) ?? 0) + 1);
  }
  const background = Math.max(...counts.values());
  const total = width * height;
  return { width, height, distinctColours: counts.size, foregroundShare: total === 0 ? 0 : (total - background) / total };
}

function unfilter(filtered: Buffer, width: number, height: number, channels: number): Buffer {
  const stride = width * channels;
  const pixels = Buffer.alloc(stride * height);
  for (let row = 0; row < height; row += 1) {
    const filter = filtered[row * (stride + 1)];
    const source = filtered.subarray(row * (stride + 1) + 1, (row + 1) * (stride + 1));
    const line = pixels.subarray(row * stride, (row + 1) * stride);
    const above = row === 0 ? Buffer.alloc(stride) : pixels.subarray((row - 1) * stride, row * stride);
    for (let index = 0; index < stride; index += 1) {
      const left = index >= channels ? (line[index - channels] as number) : 0;
      const up = above[index] as number;
      const upperLeft = index >= channels ? (above[index - channels] as number) : 0;
      const raw = source[index] as number;
      let value: number;
      if (filter === 0) value = raw;
      else if (filter === 1) value = raw + left;
      else if (filter === 2) value = raw + up;
      else if (filter === 3) value = raw + Math.floor((left + up) / 2);
      else if (filter === 4) value = raw + paeth(left, up, upperLeft);
      else throw new Error(`unknown PNG filter ${filter} in row ${row}`);
      line[index] = value & 0xff;
    }
  }
  return pixels;
}

function paeth(left: number, up: number, upperLeft: number): number {
  const estimate = left + up - upperLeft;
  const toLeft = Math.abs(estimate - left);
  const toUp = Math.abs(estimate - up);
  const toUpperLeft = Math.abs(estimate - upperLeft);
  if (toLeft <= toUp && toLeft <= toUpperLeft) return left;
  return toUp <= toUpperLeft ? up : upperLeft;
}
