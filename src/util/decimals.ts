/** @module How many decimals a number is written with, as JSON and JavaScript write it. */

/** 2 for 0.25, 7 for 1e-7, 0 for 300 and for 3e2. */
export function decimalsOf(value: number): number {
  const [digits = '', exponent = '0'] = String(value).split('e');
  return Math.max(0, (digits.split('.')[1] ?? '').length - Number(exponent));
}
