// @ts-check
'use strict';

// Photo-like test images for the photo benchmark: what an encoder meets in a real photograph
// (smooth skies, a horizon, out-of-focus shapes with soft and hard edges, textured ground and a
// sensor's grain), drawn from a seed so that every run encodes the same pixels. A flat colour or a
// plain gradient would flatter every encoder: the sizes compared would be those of nothing.

// sharp's CommonJS export is the function itself; its types, resolved the classic way the bench's
// tsconfig resolves, are the ES module's, where that function is the default export.
const sharp = /** @type {typeof import('sharp').default} */ (/** @type {unknown} */ (require('sharp')));
const { createRandom } = require('./prng');

/** What a camera writes into a photo, the private fields included (the service removes those on upload). */
const CAMERA_EXIF = {
  IFD0: { Make: 'Canon', Model: 'Canon EOS R5', Artist: 'Bench Studio' },
  IFD2: {
    FNumber: '28/10',
    ExposureTime: '1/200',
    ISOSpeedRatings: '400',
    FocalLength: '50/1',
    DateTimeOriginal: '2026:03:01 10:20:30',
    LensModel: 'RF50mm F1.2 L USM',
    BodySerialNumber: '012345678',
    CameraOwnerName: 'Bench Client-Home',
  },
  IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '6/1 10/1 3000/100', GPSLongitudeRef: 'E', GPSLongitude: '106/1 49/1 120/100' },
};

const clamp = (value) => (value < 0 ? 0 : value > 255 ? 255 : value);

/**
 * Raw RGB pixels of one "photo":
 * - a sky: a vertical gradient between two colours of the seed;
 * - a horizon: a wavy line (three sines) below which the ground has its own gradient and a texture
 *   of value noise at two scales (grass, gravel, water);
 * - 3 to 7 shapes (subjects, trees, lights out of focus): ellipses in their own colour, half with a
 *   soft falloff and half with a hard edge;
 * - grain: uniform noise of ±5 levels on every pixel, as a sensor at ISO 400 leaves it.
 * @param {number} width
 * @param {number} height
 * @param {number} seed
 */
function photoPixels(width, height, seed) {
  const random = createRandom(seed);
  const colour = () => [random.int(20, 235), random.int(20, 235), random.int(20, 235)];
  const [skyTop, skyBottom, groundTop, groundBottom] = [colour(), colour(), colour(), colour()];
  const waves = Array.from({ length: 3 }, () => ({
    amplitude: height * (0.01 + random.next() * 0.05),
    period: width * (0.15 + random.next()),
    phase: random.next() * Math.PI * 2,
  }));
  const horizonAt = height * (0.4 + random.next() * 0.3);
  const shapes = Array.from({ length: random.int(3, 7) }, () => ({
    x: random.next() * width,
    y: random.next() * height,
    rx: width * (0.03 + random.next() * 0.18),
    ry: height * (0.03 + random.next() * 0.25),
    rgb: colour(),
    soft: random.next() < 0.5,
  }));
  // Value noise: a coarse grid of random levels, interpolated; two scales.
  const grid = (cell) => {
    const columns = Math.ceil(width / cell) + 2;
    const rows = Math.ceil(height / cell) + 2;
    const values = Float32Array.from({ length: columns * rows }, () => random.next() * 2 - 1);
    return { cell, columns, values };
  };
  const coarse = grid(Math.max(8, Math.round(width / 60)));
  const fine = grid(Math.max(2, Math.round(width / 600)));
  const noiseAt = ({ cell, columns, values }, x, y) => {
    const gx = x / cell;
    const gy = y / cell;
    const x0 = Math.floor(gx);
    const y0 = Math.floor(gy);
    const fx = gx - x0;
    const fy = gy - y0;
    const at = y0 * columns + x0;
    const top = values[at] + (values[at + 1] - values[at]) * fx;
    const bottom = values[at + columns] + (values[at + columns + 1] - values[at + columns]) * fx;
    return top + (bottom - top) * fy;
  };

  const pixels = Buffer.alloc(width * height * 3);
  const horizon = new Float32Array(width);
  for (let x = 0; x < width; x += 1) {
    horizon[x] = waves.reduce((sum, wave) => sum + wave.amplitude * Math.sin((x / wave.period) * Math.PI * 2 + wave.phase), horizonAt);
  }
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const line = horizon[x];
      let r;
      let g;
      let b;
      if (y < line) {
        const t = y / line;
        r = skyTop[0] + (skyBottom[0] - skyTop[0]) * t;
        g = skyTop[1] + (skyBottom[1] - skyTop[1]) * t;
        b = skyTop[2] + (skyBottom[2] - skyTop[2]) * t;
      } else {
        const t = (y - line) / (height - line);
        const texture = noiseAt(coarse, x, y) * 18 + noiseAt(fine, x, y) * 14;
        r = groundTop[0] + (groundBottom[0] - groundTop[0]) * t + texture;
        g = groundTop[1] + (groundBottom[1] - groundTop[1]) * t + texture;
        b = groundTop[2] + (groundBottom[2] - groundTop[2]) * t + texture;
      }
      for (const shape of shapes) {
        const dx = (x - shape.x) / shape.rx;
        const dy = (y - shape.y) / shape.ry;
        const distance = dx * dx + dy * dy;
        if (distance >= 1) continue;
        const weight = shape.soft ? (1 - distance) * (1 - distance) : 0.9;
        r += (shape.rgb[0] - r) * weight;
        g += (shape.rgb[1] - g) * weight;
        b += (shape.rgb[2] - b) * weight;
      }
      const grain = random.next() * 10 - 5;
      const at = (y * width + x) * 3;
      pixels[at] = clamp(r + grain);
      pixels[at + 1] = clamp(g + grain);
      pixels[at + 2] = clamp(b + grain);
    }
  }
  return pixels;
}

/**
 * A camera JPEG (quality 90, as cameras write their fine JPEGs) of a photo-like image, with
 * CAMERA_EXIF (GPS, serial and owner included).
 * @param {number} width
 * @param {number} height
 * @param {number} seed
 */
async function cameraJpeg(width, height, seed) {
  return sharp(photoPixels(width, height, seed), { raw: { width, height, channels: 3 } })
    .withExif(CAMERA_EXIF)
    .jpeg({ quality: 90 })
    .toBuffer();
}

module.exports = { CAMERA_EXIF, cameraJpeg, photoPixels };
