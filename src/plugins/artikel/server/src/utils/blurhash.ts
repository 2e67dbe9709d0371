/**
 * A BlurHash encoder (the algorithm of blurha.sh: a few cosine components of the image in linear
 * light, the DC as sRGB, the AC quantised against their largest magnitude). Written here because the
 * `blurhash` package's encoder (2.0.5) scales the AC components by the largest *signed* value:
 * a photo whose components are mostly negative (darker at the top or left than at the bottom or
 * right) has every AC component clamped, and its placeholder comes out washed-out grey. The
 * package's decoder is right and is what the tests decode with.
 */
const BASE83 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~';

function base83(value: number, length: number): string {
  let text = '';
  for (let digit = 1; digit <= length; digit += 1) text += BASE83[Math.floor(value / 83 ** (length - digit)) % 83];
  return text;
}

const toLinear = (channel: number): number => {
  const value = channel / 255;
  return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
};

const toSrgb = (linear: number): number => {
  const value = Math.max(0, Math.min(1, linear));
  return value <= 0.0031308 ? Math.trunc(value * 12.92 * 255 + 0.5) : Math.trunc((1.055 * value ** (1 / 2.4) - 0.055) * 255 + 0.5);
};

const signedPower = (value: number, exponent: number): number => Math.sign(value) * Math.abs(value) ** exponent;

/** The BlurHash of RGBA pixels with `componentsX` × `componentsY` components (1 to 9 each). */
export function encodeBlurhash(pixels: Uint8ClampedArray, width: number, height: number, componentsX: number, componentsY: number): string {
  if (componentsX < 1 || componentsX > 9 || componentsY < 1 || componentsY > 9)
    throw new Error('BlurHash takes 1 to 9 components each way');
  if (pixels.length !== width * height * 4) throw new Error('the pixels are not width × height RGBA values');
  // Each row's and column's basis, once: cos(π·i·x/width) for every component i and column x.
  const basisX = Array.from({ length: componentsX }, (_, i) =>
    Float64Array.from({ length: width }, (_, x) => Math.cos((Math.PI * i * x) / width)),
  );
  const basisY = Array.from({ length: componentsY }, (_, j) =>
    Float64Array.from({ length: height }, (_, y) => Math.cos((Math.PI * j * y) / height)),
  );
  const linear = Float64Array.from(pixels, (value, index) => (index % 4 === 3 ? 0 : toLinear(value)));
  const factors: Array<[number, number, number]> = [];
  for (let j = 0; j < componentsY; j += 1) {
    for (let i = 0; i < componentsX; i += 1) {
      let r = 0;
      let g = 0;
      let b = 0;
      for (let y = 0; y < height; y += 1) {
        for (let x = 0; x < width; x += 1) {
          const basis = basisX[i][x] * basisY[j][y];
          const at = 4 * (y * width + x);
          r += basis * linear[at];
          g += basis * linear[at + 1];
          b += basis * linear[at + 2];
        }
      }
      const scale = (i === 0 && j === 0 ? 1 : 2) / (width * height);
      factors.push([r * scale, g * scale, b * scale]);
    }
  }
  const [dc, ...ac] = factors;
  let hash = base83(componentsX - 1 + (componentsY - 1) * 9, 1);
  let maximum = 1;
  if (ac.length > 0) {
    // The largest magnitude (the reference encoder's fabs), whatever the sign.
    const largest = Math.max(...ac.map((factor) => Math.max(...factor.map(Math.abs))));
    const quantised = Math.floor(Math.max(0, Math.min(82, Math.floor(largest * 166 - 0.5))));
    maximum = (quantised + 1) / 166;
    hash += base83(quantised, 1);
  } else {
    hash += base83(0, 1);
  }
  hash += base83((toSrgb(dc[0]) << 16) + (toSrgb(dc[1]) << 8) + toSrgb(dc[2]), 4);
  for (const factor of ac) {
    const [r, g, b] = factor.map((value) => Math.floor(Math.max(0, Math.min(18, Math.floor(signedPower(value / maximum, 0.5) * 9 + 9.5)))));
    hash += base83(r * 19 * 19 + g * 19 + b, 2);
  }
  return hash;
}
